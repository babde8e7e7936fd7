import { loginQuerySchema, userProfileSchema } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clearSessionCookie,
  readSessionToken,
  setSessionCookie,
  type SessionCookieSettings,
} from '../../http/session-cookie';
import { errorPage } from '../../issuer/pages';
import type { AuthService } from '../../services/auth.service';
import { ServiceError } from '../../services/errors';

export interface AuthRoutesDeps {
  auth: AuthService;
  cookie: SessionCookieSettings;
  publicUrl: string;
}

const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** `/api/auth/*`: sign-in (authorization code + PKCE), callback, sign-out, and the current user. */
export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const loginCookie = { ...deps.cookie, maxAgeSeconds: 30 * 60 };

  api.get(
    '/api/auth/login',
    { schema: { tags: ['auth'], summary: 'Start signing in; redirects to the issuer', querystring: loginQuerySchema } },
    async (request, reply) => {
      const { token, location } = await deps.auth.beginLogin(request.query.returnTo);
      setSessionCookie(reply, token, loginCookie);
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(location, 302);
    },
  );

  api.get(
    '/api/auth/callback',
    { schema: { tags: ['auth'], summary: 'Completes signing in (issuer redirect target)' } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        const callbackUrl = new URL(request.url, deps.publicUrl);
        const { token, location } = await deps.auth.completeLogin(readSessionToken(request, deps.cookie), callbackUrl);
        setSessionCookie(reply, token, deps.cookie);
        return reply.redirect(location, 302);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        clearSessionCookie(reply, deps.cookie);
        request.log.warn({ code: error.code }, 'sign-in callback refused');
        return reply
          .code(error.status)
          .type('text/html')
          .send(errorPage('Sign-in could not be completed', `${error.message}`).replace('Back to', 'Sign in again at'));
      }
    },
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const { location } = await deps.auth.logout(readSessionToken(request, deps.cookie));
    clearSessionCookie(reply, deps.cookie);
    reply.header('Cache-Control', 'no-store');
    return reply.redirect(location, 303);
  };
  api.get('/api/auth/logout', { schema: { tags: ['auth'], summary: 'Sign out here and at the issuer' } }, logout);
  api.post('/api/auth/logout', { schema: { tags: ['auth'], summary: 'Sign out here and at the issuer' } }, logout);

  api.get(
    '/api/auth/me',
    { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: userProfileSchema, 401: errorBody } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const user = await deps.auth.currentUser(readSessionToken(request, deps.cookie));
      if (!user) return reply.code(401).send({ error: { code: 'unauthenticated', message: 'Please sign in.' } });
      return deps.auth.toProfile(user);
    },
  );
}
