import { z } from 'zod';
import { endpoint } from './endpoint';
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

/** The profile call's answer without a session (401). */
const noSessionSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const logoutPath = '/api/auth/logout';

/**
 * Signing in through the issuer (authorization code + PKCE), its callback, signing out and the signed-in user
 * (docs/decisions/endpoints-in-contracts.md). Login, callback and logout answer redirects or pages, not JSON.
 */
export const authEndpoints = {
  login: endpoint({ method: 'GET', path: '/api/auth/login', query: loginQuerySchema }),
  callback: endpoint({ method: 'GET', path: '/api/auth/callback' }),
  /** A page that asks to confirm signing out; its form posts to `logout`. */
  logoutPage: endpoint({ method: 'GET', path: logoutPath }),
  logout: endpoint({ method: 'POST', path: logoutPath }),
  me: endpoint({ method: 'GET', path: '/api/auth/me', response: { 200: userProfileSchema, 401: noSessionSchema } }),
};
