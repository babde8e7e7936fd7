import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A person known to the external issuer. */
export interface IssuerAccount {
  subject: string;
  email: string;
  name: string;
  password: string;
}

/** A login page the issuer showed: the interaction and why it asked (its prompt: `login` asks for credentials). */
export interface SeenLogin {
  uid: string;
  prompt: string;
  /** The prompt's reasons (oidc-provider's, e.g. `login_prompt` for `prompt=login`, `max_age`). */
  reasons: string[];
}

/** An issuer to be started on a known port, so that the app can be configured for it before it listens. */
export interface PlannedIssuer {
  origin: string;
  /** The server's configuration to use this issuer (OIDC_* variables). */
  env: { OIDC_ISSUER_URL: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
}

export function planIssuer(port: number): PlannedIssuer {
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    env: {
      OIDC_ISSUER_URL: origin,
      OIDC_CLIENT_ID: 'insilico-workspace-external-test',
      OIDC_CLIENT_SECRET: randomBytes(24).toString('base64url'),
    },
  };
}

export interface ExternalIssuer extends PlannedIssuer {
  accounts: Map<string, IssuerAccount>;
  /** Every login page shown, oldest first. */
  logins: SeenLogin[];
  stop(): Promise<void>;
}

/**
 * An external OpenID Connect issuer for API tests, on its own port: oidc-provider (the library the embedded issuer is
 * built on) with one confidential client whose redirect URI is the app's callback, accounts held here, and a login
 * step the test drives with a form post (`POST /interaction/:uid/login`, fields `email` and `password`). It honours
 * `prompt=login` and `max_age`, and puts `auth_time` into the ID token, as a conforming issuer does.
 */
export async function startExternalIssuer(planned: PlannedIssuer, appOrigin: string): Promise<ExternalIssuer> {
  const { origin, env } = planned;
  const accounts = new Map<string, IssuerAccount>();
  const logins: SeenLogin[] = [];
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    clients: [
      {
        client_id: env.OIDC_CLIENT_ID,
        client_secret: env.OIDC_CLIENT_SECRET,
        redirect_uris: [`${appOrigin}/api/auth/callback`],
        post_logout_redirect_uris: [`${appOrigin}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount(_ctx, id) {
      const account = [...accounts.values()].find((candidate) => candidate.subject === id);
      if (!account) return undefined;
      return {
        accountId: account.subject,
        claims: () => ({ sub: account.subject, email: account.email, email_verified: true, name: account.name }),
      };
    },
    // A first-party client: its scopes are granted without a consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(origin, configuration);
  const handle = provider.callback();

  const interaction = async (request: IncomingMessage, response: ServerResponse) => {
    const details = await provider.interactionDetails(request, response);
    if (request.method === 'GET') {
      logins.push({ uid: details.uid, prompt: details.prompt.name, reasons: [...details.prompt.reasons] });
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<form method="post" action="/interaction/${details.uid}/login">Sign in</form>`);
      return;
    }
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const fields = new URLSearchParams(body);
    const account = accounts.get(fields.get('email') ?? '');
    if (!account || account.password !== fields.get('password')) {
      response.writeHead(401, { 'content-type': 'text/html' });
      response.end('Wrong e-mail address or password.');
      return;
    }
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: account.subject } },
      { mergeWithLastSubmission: false },
    );
  };

  const server = createServer((request, response) => {
    const work = request.url?.startsWith('/interaction/') ? interaction(request, response) : handle(request, response);
    void Promise.resolve(work).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : 'error');
    });
  });
  await new Promise<void>((resolve) => server.listen(Number(new URL(origin).port), '127.0.0.1', resolve));
  return {
    origin,
    env,
    accounts,
    logins,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
