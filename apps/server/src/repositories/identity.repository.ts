import * as oidc from 'openid-client';

export interface IdentitySettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scopes: string;
  /** The embedded issuer is reached in-process and over plain http in development. */
  allowInsecureRequests: boolean;
  fetch?: typeof fetch;
}

export interface LoginSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  fullName: string;
  idToken: string;
  /** When the issuer authenticated the person (`auth_time`, seconds since the epoch), if the token says. */
  authTime: number | null;
}

/** A fresh authentication whatever session the issuer holds (OIDC Core §3.1.2.1: `prompt=login`, `max_age=0`). */
export interface AuthorizationOptions {
  freshSignIn?: boolean;
}

export class IdentityError extends Error {}

/**
 * The relying party: authorization code + PKCE against any OpenID Connect issuer (the embedded
 * one or an external one). Only this class knows the OIDC client library.
 */
export class IdentityRepository {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly settings: IdentitySettings) {}

  static newLoginSecrets(): LoginSecrets {
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  }

  async authorizationUrl(secrets: LoginSecrets, options: AuthorizationOptions = {}): Promise<URL> {
    const config = await this.config();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(secrets.codeVerifier);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      state: secrets.state,
      nonce: secrets.nonce,
      ...(options.freshSignIn ? { prompt: 'login', max_age: '0' } : {}),
    });
  }

  /**
   * Completes the code flow from the callback URL; checks state, nonce, PKCE and the ID token (with `maxAge`, also
   * that it has an `auth_time` no older than that, within the library's clock tolerance).
   */
  async exchange(callbackUrl: URL, secrets: LoginSecrets, checks: { maxAge?: number } = {}): Promise<VerifiedIdentity> {
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
        ...(checks.maxAge !== undefined ? { maxAge: checks.maxAge } : {}),
      });
    } catch (error) {
      throw new IdentityError(error instanceof Error ? error.message : 'The sign-in could not be verified.');
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new IdentityError('The issuer sent no ID token.');
    let email = typeof claims.email === 'string' ? claims.email : null;
    let name = typeof claims.name === 'string' ? claims.name : null;
    if (!email || !name) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email ??= typeof info.email === 'string' ? info.email : null;
      name ??= typeof info.name === 'string' ? info.name : null;
    }
    if (!email) throw new IdentityError('The issuer did not share an e-mail address (scope "email").');
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email,
      fullName: name ?? email,
      idToken: tokens.id_token,
      authTime: typeof claims.auth_time === 'number' ? claims.auth_time : null,
    };
  }

  /** The issuer's end-session URL (RP-initiated logout), or null if it has none. */
  async endSessionUrl(idToken: string | null): Promise<URL | null> {
    const config = await this.config();
    if (!config.serverMetadata().end_session_endpoint) return null;
    const parameters: Record<string, string> = { post_logout_redirect_uri: this.settings.postLogoutRedirectUri };
    if (idToken) parameters.id_token_hint = idToken;
    else parameters.client_id = this.settings.clientId;
    return oidc.buildEndSessionUrl(config, parameters);
  }

  private config(): Promise<oidc.Configuration> {
    if (!this.configuration) {
      const options: oidc.DiscoveryRequestOptions = {};
      if (this.settings.allowInsecureRequests) options.execute = [oidc.allowInsecureRequests];
      // Discovery and every later call go through the same fetch (in-process for the embedded issuer).
      if (this.settings.fetch) options[oidc.customFetch] = this.settings.fetch;
      const pending = oidc.discovery(
        new URL(this.settings.issuerUrl),
        this.settings.clientId,
        this.settings.clientSecret,
        undefined,
        options,
      );
      pending.catch(() => {
        this.configuration = null; // try again on the next sign-in rather than caching the failure
      });
      this.configuration = pending;
    }
    return this.configuration;
  }
}
