import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Orm } from '../db/client';
import type { AuthAttemptRepository } from '../repositories/auth-attempt.repository';
import type { MailRepository } from '../repositories/mail.repository';
import {
  AuthThrottle,
  throttleRules,
  tooManyAttemptsMessage,
  type ThrottleKey,
} from '../services/auth-throttle.service';
import { contentSecurityPolicy } from '../http/security-headers';
import { AccountRepository } from './account.repository';
import { AccountError, AccountService, invalidConfirmationMessage, normaliseEmail } from './account.service';
import type { IssuerSecrets } from './issuer-keys';
import { oidcAdapterFor } from './oidc-adapter';
import {
  accountReadyPage,
  changePasswordPage,
  checkEmailPage,
  confirmSignUpPage,
  errorPage,
  type FieldErrors,
  signedOutPage,
  signInPage,
  signOutPage,
  signUpPage,
} from './pages';

export const embeddedClientId = 'insilico-workspace';
export const issuerPath = '/oidc';

export interface EmbeddedIssuerOptions {
  publicUrl: string;
  orm: Orm;
  /** The composition root's own (one of each repository). */
  repositories: { mail: MailRepository; authAttempts: AuthAttemptRepository };
  secrets: IssuerSecrets;
  secureCookies: boolean;
  trustProxy: boolean;
  /** Same-origin check for the issuer's own form posts. */
  isSameOrigin: (request: FastifyRequest) => boolean;
}

/**
 * The embedded OpenID Connect issuer (oidc-provider) with local accounts, served under `/oidc`
 * by the same process: sign-up, sign-in, sign-out and password change pages of its own.
 * With an external issuer configured this is not mounted at all.
 */
export function createEmbeddedIssuer(options: EmbeddedIssuerOptions): {
  issuerUrl: string;
  clientSecret: string;
  passwordChangeUrl: string;
  register: (app: FastifyInstance) => Promise<void>;
} {
  const issuerUrl = `${options.publicUrl}${issuerPath}`;
  const { mail } = options.repositories;
  const accounts = new AccountService(new AccountRepository(options.orm), async (message) => {
    await mail.insert(message);
  });
  const throttle = new AuthThrottle(options.repositories.authAttempts);
  const configuration: Configuration = {
    adapter: oidcAdapterFor(options.orm),
    clients: [
      {
        client_id: embeddedClientId,
        client_secret: options.secrets.clientSecret,
        redirect_uris: [`${options.publicUrl}/api/auth/callback`],
        post_logout_redirect_uris: [`${options.publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [options.secrets.signingKey] },
    cookies: {
      keys: options.secrets.cookieKeys,
      long: { signed: true, secure: options.secureCookies, sameSite: 'lax' },
      short: { signed: true, secure: options.secureCookies, sameSite: 'lax' },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put e-mail and name into the ID token itself: the app reads them at sign-in.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          const nonce = randomBytes(16).toString('base64');
          ctx.set('Content-Security-Policy', pageCsp(nonce));
          ctx.type = 'html';
          ctx.body = signOutPage(form, nonce);
        },
        postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${issuerPath}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = await accounts.findById(id);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: async () => ({ sub: account.id, email: account.email, email_verified: false, name: account.fullName }),
      };
    },
    // The app is the issuer's only (first-party) client: grant its scopes without a consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async renderError(ctx, output) {
      ctx.type = 'html';
      ctx.body = errorPage(
        'Sign-in problem',
        output.error_description ?? output.error ?? 'Something went wrong while signing in.',
      );
    },
    ttl: {
      Interaction: 60 * 60,
      Session: 12 * 60 * 60,
      Grant: 12 * 60 * 60,
      AuthorizationCode: 60,
      AccessToken: 60 * 60,
      IdToken: 60 * 60,
    },
  };
  const provider = new Provider(issuerUrl, configuration);
  provider.proxy = options.trustProxy;
  const handle = provider.callback();

  async function register(app: FastifyInstance): Promise<void> {
    // Interaction pages: parsed forms, our own HTML.
    await app.register(async (pages) => {
      await pages.register(formbody);
      pages.addHook('onSend', async (_request, reply) => {
        reply.header('Cache-Control', 'no-store');
        reply.header('Content-Security-Policy', pageCsp(null));
      });

      pages.get(`${issuerPath}/interaction/:uid`, async (request, reply) => {
        const details = await interactionOrError(request, reply);
        if (!details) return reply;
        const uid = details.uid;
        const mode = (request.query as { mode?: string }).mode;
        const html =
          mode === 'signup'
            ? signUpPage({
                action: `${issuerPath}/interaction/${uid}/signup`,
                signInHref: `${issuerPath}/interaction/${uid}`,
              })
            : signInPage({
                action: `${issuerPath}/interaction/${uid}/login`,
                signUpHref: `${issuerPath}/interaction/${uid}?mode=signup`,
                email: typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined,
              });
        return reply.type('text/html').send(html);
      });

      pages.post(`${issuerPath}/interaction/:uid/login`, async (request, reply) => {
        if (refusedAsCrossOrigin(request, reply)) return reply;
        const details = await interactionOrError(request, reply);
        if (!details) return reply;
        const body = formFields(request.body, ['email', 'password']);
        const signInAgain = (status: number, message: string) =>
          reply
            .code(status)
            .type('text/html')
            .send(
              signInPage({
                action: `${issuerPath}/interaction/${details.uid}/login`,
                signUpHref: `${issuerPath}/interaction/${details.uid}?mode=signup`,
                email: body.email,
                errors: { form: [message] },
              }),
            );
        const keys = AuthThrottle.passwordKeys(normaliseEmail(body.email), request.ip);
        const wait = await throttle.refusal(keys);
        if (wait !== null) {
          reply.header('Retry-After', String(wait));
          return signInAgain(429, tooManyAttemptsMessage(wait));
        }
        const account = await accounts.authenticate(body.email, body.password);
        if (!account) {
          await throttle.count(keys);
          return signInAgain(400, 'The e-mail address or password is not correct.');
        }
        await throttle.clear(keys.slice(0, 1));
        return finish(request, reply, account.id);
      });

      pages.post(`${issuerPath}/interaction/:uid/signup`, async (request, reply) => {
        if (refusedAsCrossOrigin(request, reply)) return reply;
        const details = await interactionOrError(request, reply);
        if (!details) return reply;
        const body = formFields(request.body, ['email', 'fullName', 'password']);
        const signInHref = `${issuerPath}/interaction/${details.uid}`;
        try {
          const { email } = accounts.checkSignUp(body);
          const keys: ThrottleKey[] = [
            { rule: throttleRules.signUpAccount, key: email },
            { rule: throttleRules.signUpAddress, key: request.ip },
          ];
          const wait = await throttle.refusal(keys);
          if (wait !== null) {
            reply.header('Retry-After', String(wait));
            throw new TooManyAttempts(wait);
          }
          await throttle.count(keys);
          // The same answer (and about the same time) whether or not the address has an account.
          await accounts.signUp(body, {
            interactionUid: details.uid,
            confirmUrl: (token) =>
              `${options.publicUrl}${issuerPath}/interaction/${details.uid}/confirm?token=${encodeURIComponent(token)}`,
            signInUrl: `${options.publicUrl}/`,
          });
          return reply.type('text/html').send(checkEmailPage({ email, signInHref }));
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          const errors: FieldErrors = { [error.field]: error.problems };
          return reply
            .code(error instanceof TooManyAttempts ? 429 : 400)
            .type('text/html')
            .send(
              signUpPage({
                action: `${issuerPath}/interaction/${details.uid}/signup`,
                signInHref,
                values: { email: body.email, fullName: body.fullName },
                errors,
              }),
            );
        }
      });

      // The mailed sign-up link. In the browser that signed up (the interaction cookie is sent to this path)
      // confirming completes that sign-in; elsewhere the sign-up's password is asked for too.
      pages.get(`${issuerPath}/interaction/:uid/confirm`, async (request, reply) => {
        const token = formFields(request.query, ['token']).token;
        const pending = await accounts.pendingSignUp(token);
        if (!pending)
          return reply.code(400).type('text/html').send(errorPage('Link not valid', invalidConfirmationMessage));
        const sameSignIn = await isSameSignIn(request, reply, pending.interactionUid);
        return reply.type('text/html').send(
          confirmSignUpPage({
            action: request.url.split('?')[0]!,
            token,
            email: pending.email,
            askPassword: !sameSignIn,
          }),
        );
      });

      pages.post(`${issuerPath}/interaction/:uid/confirm`, async (request, reply) => {
        if (refusedAsCrossOrigin(request, reply)) return reply;
        const body = formFields(request.body, ['token', 'password']);
        const pending = await accounts.pendingSignUp(body.token);
        if (!pending)
          return reply.code(400).type('text/html').send(errorPage('Link not valid', invalidConfirmationMessage));
        const sameSignIn = await isSameSignIn(request, reply, pending.interactionUid);
        // A password guess here counts like one at sign-in.
        const keys = AuthThrottle.passwordKeys(pending.email, request.ip);
        const again = (status: number, errors: FieldErrors) =>
          reply
            .code(status)
            .type('text/html')
            .send(
              confirmSignUpPage({
                action: request.url.split('?')[0]!,
                token: body.token,
                email: pending.email,
                askPassword: !sameSignIn,
                errors,
              }),
            );
        if (!sameSignIn) {
          const wait = await throttle.refusal(keys);
          if (wait !== null) {
            reply.header('Retry-After', String(wait));
            return again(429, { form: [tooManyAttemptsMessage(wait)] });
          }
        }
        try {
          const account = await accounts.confirmSignUp(body.token, { sameSignIn, password: body.password });
          if (sameSignIn) return await finish(request, reply, account.id);
          return reply.type('text/html').send(accountReadyPage());
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          if (error.field === 'password') await throttle.count(keys);
          return again(400, { [error.field]: error.problems });
        }
      });

      pages.get(`${issuerPath}/account/password`, async (_request, reply) =>
        reply.type('text/html').send(changePasswordPage({ action: `${issuerPath}/account/password` })),
      );

      pages.post(`${issuerPath}/account/password`, async (request, reply) => {
        if (refusedAsCrossOrigin(request, reply)) return reply;
        const body = formFields(request.body, ['email', 'currentPassword', 'password']);
        // Wrong current passwords count together with wrong passwords at sign-in.
        const keys = AuthThrottle.passwordKeys(normaliseEmail(body.email), request.ip);
        try {
          const wait = await throttle.refusal(keys);
          if (wait !== null) {
            reply.header('Retry-After', String(wait));
            throw new TooManyAttempts(wait);
          }
          await accounts.changePassword({
            email: body.email,
            currentPassword: body.currentPassword,
            newPassword: body.password,
          });
          return reply
            .type('text/html')
            .send(changePasswordPage({ action: `${issuerPath}/account/password`, email: body.email, done: true }));
        } catch (error) {
          if (!(error instanceof AccountError)) throw error;
          if (error.field === 'currentPassword') await throttle.count(keys);
          return reply
            .code(error instanceof TooManyAttempts ? 429 : 400)
            .type('text/html')
            .send(
              changePasswordPage({
                action: `${issuerPath}/account/password`,
                email: body.email,
                errors: { [error.field]: error.problems },
              }),
            );
        }
      });
    });

    // Everything else under /oidc is oidc-provider's own (discovery, auth, token, jwks, end session …).
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', (_request, _payload, done) => done(null)); // leave the body stream to oidc-provider
      const toProvider = async (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const req = request.raw as IncomingMessage & { originalUrl?: string };
        req.originalUrl = req.url;
        req.url = (req.url ?? '').slice(issuerPath.length) || '/';
        await handle(req, reply.raw);
      };
      raw.all(issuerPath, toProvider);
      raw.all(`${issuerPath}/*`, toProvider);
    });
  }

  /** The issuer's forms accept posts from this site only (same rule as the API). */
  function refusedAsCrossOrigin(request: FastifyRequest, reply: FastifyReply): boolean {
    if (options.isSameOrigin(request)) return false;
    reply.code(403).type('text/html').send(errorPage('Not allowed', 'This form must be sent from this site.'));
    return true;
  }

  /** Whether this browser's live sign-in (interaction) is the one a sign-up was started from. */
  async function isSameSignIn(request: FastifyRequest, reply: FastifyReply, uid: string | null): Promise<boolean> {
    if (!uid || (request.params as { uid?: string }).uid !== uid) return false;
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
    return details?.uid === uid;
  }

  async function interactionOrError(request: FastifyRequest, reply: FastifyReply) {
    try {
      return await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      reply
        .code(400)
        .type('text/html')
        .send(
          errorPage('Sign-in expired', 'This sign-in page has expired. Go back to the workspace and sign in again.'),
        );
      return null;
    }
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, accountId: string) {
    const location = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(location, 303);
  }

  return {
    issuerUrl,
    clientSecret: options.secrets.clientSecret,
    passwordChangeUrl: `${issuerPath}/account/password`,
    register,
  };
}

/** A throttle refusal inside a form handler: shown like a form error, answered with 429. */
class TooManyAttempts extends AccountError {
  constructor(retryAfterSeconds: number) {
    super('form', [tooManyAttemptsMessage(retryAfterSeconds)]);
  }
}

function formFields<K extends string>(body: unknown, keys: readonly K[]): Record<K, string> {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const out = {} as Record<K, string>;
  for (const key of keys) {
    const value = source[key];
    out[key] = typeof value === 'string' ? value.slice(0, 1024) : '';
  }
  return out;
}

/** The app's policy, with no script but the sign-out page's own (by its nonce). */
function pageCsp(scriptNonce: string | null): string {
  return contentSecurityPolicy([scriptNonce ? `'nonce-${scriptNonce}'` : "'none'"]);
}
