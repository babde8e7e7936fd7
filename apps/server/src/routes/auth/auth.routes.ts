import { authEndpoints as endpoints, pathOf } from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import {
  clearSessionCookie,
  readSessionToken,
  setSessionCookie,
  type SessionCookieSettings,
} from '../../http/session-cookie';
import { errorPage, signOutConfirmPage } from '../../issuer/pages';
import { callbackUsedCode, type AuthService } from '../../services/auth.service';
import type { SigningReauthenticationService } from '../../services/signing-reauthentication.service';
import { ServiceError } from '../../services/errors';

export interface AuthRoutesDeps {
  auth: AuthService;
  cookie: SessionCookieSettings;
  publicUrl: string;
  /** The callback also completes signings that asked the external issuer for a fresh sign-in. */
  signing?: Pick<SigningReauthenticationService, 'complete'>;
}

/** `/api/auth/*`: sign-in (authorization code + PKCE), callback, sign-out, and the current user. */
export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const loginCookie = { ...deps.cookie, maxAgeSeconds: 30 * 60 };

  route(
    api,
    endpoints.login,
    { schema: { tags: ['auth'], summary: 'Start signing in; redirects to the issuer' } },
    async (request, reply) => {
      const { token, location } = await deps.auth.beginLogin(request.query.returnTo);
      setSessionCookie(reply, token, loginCookie);
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(location, 302);
    },
  );

  route(
    api,
    endpoints.callback,
    { schema: { tags: ['auth'], summary: 'Completes signing in (issuer redirect target)' } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const callbackUrl = new URL(request.url, deps.publicUrl);
      try {
        const signed = await deps.signing?.complete(readSessionToken(request, deps.cookie), callbackUrl);
        if (signed) return await reply.redirect(signed.location, 303);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        // The session stays: only the signing failed.
        request.log.warn({ code: error.code }, 'signing callback refused');
        return reply
          .code(error.status)
          .type('text/html')
          .send(errorPage('Signing could not be completed', error.message).replace('Back to', 'Go back to'));
      }
      try {
        const { token, location } = await deps.auth.completeLogin(readSessionToken(request, deps.cookie), callbackUrl);
        setSessionCookie(reply, token, deps.cookie);
        return reply.redirect(location, 302);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        request.log.warn({ code: error.code }, 'sign-in callback refused');
        if (error.code === callbackUsedCode) {
          return reply
            .code(error.status)
            .type('text/html')
            .send(errorPage('Already signed in', error.message).replace('Back to', 'Go back to'));
        }
        clearSessionCookie(reply, deps.cookie);
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
  // Signing out changes state, so only a POST does it (same-origin checked like every API POST); a GET, which
  // any site can make the browser send (a link, an image), only shows a page that asks to confirm.
  route(
    api,
    endpoints.logoutPage,
    { schema: { tags: ['auth'], summary: 'A page that asks to confirm signing out (posts to the same URL)' } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reply.type('text/html').send(signOutConfirmPage(pathOf(endpoints.logout, {})));
    },
  );
  // The confirm page's form posts an empty urlencoded body; the API otherwise speaks JSON only.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, {}),
    );
    route(
      scope.withTypeProvider<ZodTypeProvider>(),
      endpoints.logout,
      { schema: { tags: ['auth'], summary: 'Sign out here and at the issuer' } },
      logout,
    );
  });

  route(api, endpoints.me, { schema: { tags: ['auth'], summary: 'The signed-in user' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const user = await deps.auth.currentUser(readSessionToken(request, deps.cookie));
    if (!user) return reply.code(401).send({ error: { code: 'unauthenticated', message: 'Please sign in.' } });
    return deps.auth.toProfile(user);
  });
}
