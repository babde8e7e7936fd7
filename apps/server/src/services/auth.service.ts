import type { UserProfile } from '@insilico/contracts';
import { noteCallerMembership } from '../events/request-context';
import { safeReturnTo } from '../lib/return-to';
import { IdentityError, IdentityRepository } from '../repositories/identity.repository';
import type { UserRepository, UserRow } from '../repositories/user.repository';
import { ServiceError } from './errors';
import { userPictureUrl } from './picture-urls';
import type { SessionService } from './session.service';

export interface AuthSettings {
  identityProvider: 'embedded' | 'external';
  passwordChangeUrl: string | null;
}

/** The code of a sign-in or signing callback opened again in a browser that is signed in (its session stays). */
export const callbackUsedCode = 'callback_used';
export const callbackUsedMessage =
  'This sign-in link has already been used. You are still signed in; nothing else happened.';

/** Sign-in, sign-out and "who is this" — the relying-party side of OpenID Connect. */
export class AuthService {
  constructor(
    private readonly sessions: SessionService,
    private readonly identity: IdentityRepository,
    private readonly users: UserRepository,
    private readonly settings: AuthSettings,
  ) {}

  /** Starts authorization code + PKCE; answers the pre-sign-in session token and the issuer URL. */
  async beginLogin(returnTo: unknown): Promise<{ token: string; location: string }> {
    const secrets = IdentityRepository.newLoginSecrets();
    const location = await this.identity.authorizationUrl(secrets);
    const token = await this.sessions.startLogin({ ...secrets, returnTo: safeReturnTo(returnTo) });
    return { token, location: location.href };
  }

  /** Completes the sign-in at the callback; answers a new session token and where to go. */
  async completeLogin(preLoginToken: string | null, callbackUrl: URL): Promise<{ token: string; location: string }> {
    const login = await this.sessions.takeLogin(preLoginToken);
    if (!login && (await this.sessions.resolveUser(preLoginToken))) {
      // A callback address opened again (history, a reload, a bookmark) in a browser that is signed in: its
      // session stays and nothing else happens.
      throw new ServiceError(409, callbackUsedCode, callbackUsedMessage);
    }
    if (!login) {
      throw new ServiceError(
        400,
        'login_expired',
        'This sign-in has expired or was started in another browser. Please sign in again.',
      );
    }
    let identity;
    try {
      identity = await this.identity.exchange(callbackUrl, login);
    } catch (error) {
      if (error instanceof IdentityError)
        throw new ServiceError(400, 'login_failed', `The sign-in could not be completed: ${error.message}`);
      throw error;
    }
    const user = await this.users.upsertFromIdentity(identity);
    const token = await this.sessions.startUserSession(user.id, identity.idToken);
    // Checked again on the way out: this is the value the browser is finally sent to.
    return { token, location: safeReturnTo(login.returnTo) };
  }

  /** Ends the server session and answers where to send the browser to end the issuer's session too. */
  async logout(token: string | null): Promise<{ location: string }> {
    const ended = await this.sessions.end(token);
    if (!ended || ended.kind !== 'user') return { location: '/' };
    const endSession = await this.identity.endSessionUrl(ended.idToken).catch(() => null);
    return { location: endSession ? endSession.href : '/' };
  }

  /**
   * The user behind a session token, or null (→ 401). With `deviceId` (the workspace the request's path addresses)
   * the user's membership of it is read in the same statement and kept for the request's authorization
   * (docs/decisions/session-and-membership.md).
   */
  async currentUser(token: string | null, deviceId?: string): Promise<UserRow | null> {
    const caller = await this.sessions.resolveCaller(token, deviceId);
    if (!caller) return null;
    if (deviceId !== undefined)
      noteCallerMembership({ userId: caller.user.id, deviceId, membership: caller.membership ?? null });
    return caller.user;
  }

  toProfile(user: UserRow): UserProfile {
    return {
      id: user.id,
      email: user.email,
      fullName: user.fullName,
      jobTitle: user.jobTitle,
      pictureUrl: userPictureUrl(user),
      identityProvider: this.settings.identityProvider,
      passwordChangeUrl: this.settings.passwordChangeUrl,
      createdAt: user.createdAt.toISOString(),
    };
  }
}
