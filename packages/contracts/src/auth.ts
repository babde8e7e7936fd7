import { z } from 'zod';
import { text } from './text';

/** The signed-in user, answered by `GET /api/auth/me` (200), or 401 when there is no session. */
export const userProfileSchema = z.object({
  id: text(),
  email: text(),
  fullName: text(),
  jobTitle: text().nullable(),
  pictureUrl: text().nullable(),
  /** Where the account lives: the embedded issuer or an external one; the web shows "Change password" only for embedded. */
  identityProvider: z.enum(['embedded', 'external']),
  /** Link to the issuer's password-change page, when the issuer offers one. */
  passwordChangeUrl: text().nullable(),
  createdAt: text(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** `returnTo` of `GET /api/auth/login`: only a same-origin relative path is honoured, anything else becomes `/`. */
export const loginQuerySchema = z.object({
  // Deliberately plain: never refused, lib/return-to.ts turns anything unsafe (control characters included) into `/`.
  returnTo: z.string().optional(),
});
