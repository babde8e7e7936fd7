import { createHash } from 'node:crypto';
import {
  reauthenticationCancelledMessage,
  reauthenticationExpiredMessage,
  reauthenticationFailedMessage,
  reauthenticationNotFreshMessage,
  reauthenticationOtherAccountMessage,
  reauthenticationSeconds,
  signatureWithPasswordMessage,
  signedReturnParam,
  type Reauthentication,
  type ReauthenticationRequest,
} from '@insilico/contracts';
import { safeReturnTo } from '../lib/return-to';
import {
  IdentityError,
  IdentityRepository,
  type AuthorizationOptions,
  type LoginSecrets,
  type VerifiedIdentity,
} from '../repositories/identity.repository';
import type { SigningReauthenticationRepository } from '../repositories/signing-reauthentication.repository';
import type { UserRow } from '../repositories/user.repository';
import { signingSessionKey, type DesignHistoryService } from './design-history.service';
import { ServiceError } from './errors';

/** The external issuer as signing uses it (the relying party of `IdentityRepository`). */
export interface SigningIssuer {
  authorizationUrl(secrets: LoginSecrets, options: AuthorizationOptions): Promise<URL>;
  exchange(callbackUrl: URL, secrets: LoginSecrets, checks: { maxAge?: number }): Promise<VerifiedIdentity>;
}

/** Clock difference allowed between the issuer and this server when `auth_time` is compared with the start. */
export const authTimeToleranceSeconds = 5;

/** Where the browser comes back to after signing when the page named none. */
const defaultReturnTo = '/design-history';

/** The page to go back to, marked so that it confirms the signature (`signed=1`); a relative path stays one. */
export function withSignedMarker(returnTo: string): string {
  const url = new URL(returnTo, 'http://app.invalid');
  url.searchParams.set(signedReturnParam, '1');
  return `${url.pathname}${url.search}${url.hash}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Why the issuer's answer does not stand in for the sign-in components at this signing, or null when it does: the
 * ID token must name the person signed in here (issuer and subject) and show an authentication (`auth_time`) made
 * after the signing began, give or take the clock tolerance. 21 CFR Part 11 §11.200(a)(1): both components, at the
 * signing.
 */
export function reauthenticationProblem(
  identity: Pick<VerifiedIdentity, 'issuer' | 'subject' | 'authTime'>,
  user: Pick<UserRow, 'issuer' | 'subject'>,
  startedAt: Date,
): string | null {
  if (identity.issuer !== user.issuer || identity.subject !== user.subject) return reauthenticationOtherAccountMessage;
  if (identity.authTime === null) return reauthenticationNotFreshMessage;
  const startedAtSeconds = Math.floor(startedAt.getTime() / 1000);
  if (identity.authTime < startedAtSeconds - authTimeToleranceSeconds) return reauthenticationNotFreshMessage;
  return null;
}

/**
 * Electronic signatures with an external identity provider (docs/decisions/design-history-signatures.md): `begin`
 * checks the signing as a password signing would be checked and answers the issuer's address for a fresh sign-in
 * (`prompt=login`, `max_age=0`, a state, nonce and PKCE verifier of this signing, kept here for a few minutes);
 * `complete`, at the app's one callback, takes that signing once, verifies the code, the ID token, its nonce and its
 * `auth_time`, and writes the signature with its event. Nothing is signed on any refusal.
 */
export class SigningReauthenticationService {
  private readonly now: () => Date;

  constructor(
    private readonly deps: {
      /** Null with the embedded issuer (its password is re-entered instead). */
      issuer: SigningIssuer | null;
      repository: SigningReauthenticationRepository;
      designHistory: DesignHistoryService;
      sessions: { resolveUser(token: string | null): Promise<UserRow | null> };
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  async begin(
    user: UserRow,
    deviceId: string,
    request: ReauthenticationRequest,
    sessionToken: string | null,
  ): Promise<Reauthentication> {
    const record = await this.deps.designHistory.signable(user, deviceId, request.record);
    const issuer = this.deps.issuer;
    if (!issuer) throw new ServiceError(409, 'signature_with_password', signatureWithPasswordMessage);
    if (!sessionToken) throw new ServiceError(401, 'unauthenticated', 'Please sign in.');
    await this.deps.designHistory.refuseSignedAlready(user, record, request.meaning);
    const secrets = IdentityRepository.newLoginSecrets();
    const location = await issuer.authorizationUrl(secrets, { freshSignIn: true });
    const createdAt = this.now();
    const expiresAt = new Date(createdAt.getTime() + reauthenticationSeconds * 1000);
    const source = record.manifestSource;
    await this.deps.repository.insert({
      stateHash: sha256(secrets.state),
      userId: user.id,
      sessionKey: signingSessionKey(sessionToken),
      deviceId,
      recordType: source.type,
      recordId: String(source.row.id),
      meaning: request.meaning,
      nonce: secrets.nonce,
      codeVerifier: secrets.codeVerifier,
      returnTo: safeReturnTo(request.returnTo ?? defaultReturnTo),
      createdAt,
      expiresAt,
    });
    return { location: location.href, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Completes the signing whose `state` the callback carries, or answers null when the callback is not a signing's
   * (a sign-in's: the caller goes on with it). The signing is used up whatever the outcome.
   */
  async complete(sessionToken: string | null, callbackUrl: URL): Promise<{ location: string } | null> {
    const state = callbackUrl.searchParams.get('state');
    const issuer = this.deps.issuer;
    if (!state || !issuer) return null;
    const pending = await this.deps.repository.take(sha256(state));
    if (!pending) return null;
    const refused = (message: string) => new ServiceError(400, 'signature_not_confirmed', message);
    if (pending.expiresAt <= this.now()) throw refused(reauthenticationExpiredMessage);
    const user = await this.deps.sessions.resolveUser(sessionToken);
    if (!user || !sessionToken || user.id !== pending.userId || signingSessionKey(sessionToken) !== pending.sessionKey)
      throw refused(reauthenticationExpiredMessage);
    if (callbackUrl.searchParams.has('error')) throw refused(reauthenticationCancelledMessage);

    let identity: VerifiedIdentity;
    try {
      identity = await issuer.exchange(
        callbackUrl,
        { state, nonce: pending.nonce, codeVerifier: pending.codeVerifier },
        { maxAge: 0 },
      );
    } catch (error) {
      if (error instanceof IdentityError) throw refused(`${reauthenticationFailedMessage} (${error.message})`);
      throw error;
    }
    const problem = reauthenticationProblem(identity, user, pending.createdAt);
    if (problem !== null || identity.authTime === null) throw refused(problem ?? reauthenticationNotFreshMessage);
    const authenticatedAt = new Date(identity.authTime * 1000).toISOString();

    // Checked again now: the record and the right to sign it may have changed while the issuer asked.
    const input = { record: { type: pending.recordType, id: pending.recordId }, meaning: pending.meaning };
    const record = await this.deps.designHistory.signable(user, pending.deviceId, input.record);
    await this.deps.designHistory.writeSignature(user, pending.deviceId, record, input, pending.sessionKey, {
      method: 'issuer',
      issuer: identity.issuer,
      authenticatedAt,
    });
    return { location: withSignedMarker(pending.returnTo) };
  }
}
