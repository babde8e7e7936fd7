import { z } from 'zod';

/** The signed-in user, answered by `GET /api/auth/me` (200), or 401 when there is no session. */
export const userProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  jobTitle: z.string().nullable(),
  pictureUrl: z.string().nullable(),
  /** Where the account lives: the embedded issuer or an external one; the web shows "Change password" only for embedded. */
  identityProvider: z.enum(['embedded', 'external']),
  /** Link to the issuer's password-change page, when the issuer offers one. */
  passwordChangeUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** `returnTo` of `GET /api/auth/login`: only a same-origin relative path is honoured, anything else becomes `/`. */
export const loginQuerySchema = z.object({
  returnTo: z.string().optional(),
});
