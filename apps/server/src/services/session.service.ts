import { createHash, randomBytes } from 'node:crypto';
import type {
  LoginTransaction,
  SessionRepository,
  SessionRow,
  UserSessionRow,
} from '../repositories/session.repository';
import type { UserRow } from '../repositories/user.repository';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** A sign-in in flight may take this long (the user may have to sign up first). */
const loginTransactionMs = 30 * 60_000;
/** lastSeenAt is written at most this often, so reads do not turn into a write per request. */
const touchEveryMs = 60_000;

/** Server-side sessions: opaque random tokens in the cookie, only their hashes in the database. */
export class SessionService {
  constructor(
    private readonly repository: SessionRepository,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async startLogin(login: LoginTransaction): Promise<string> {
    const { token, idHash } = newToken();
    const createdAt = this.now();
    await this.repository.insert({
      idHash,
      kind: 'login',
      userId: null,
      login,
      idToken: null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + loginTransactionMs),
    });
    return token;
  }

  /** Consumes a login transaction: it can be used once, and its token is worthless afterwards. */
  async takeLogin(token: string | null): Promise<LoginTransaction | null> {
    if (!token) return null;
    // Only a login transaction is taken: a replayed callback in a signed-in browser leaves its session alone.
    const row = await this.repository.delete(hashToken(token), 'login');
    if (!row || row.kind !== 'login' || !row.login || row.expiresAt <= this.now()) return null;
    return row.login;
  }

  /** A fresh session with a new id (never the pre-sign-in one: no session fixation). */
  async startUserSession(userId: string, idToken: string): Promise<string> {
    const { token, idHash } = newToken();
    const createdAt = this.now();
    await this.repository.insert({
      idHash,
      kind: 'user',
      userId,
      login: null,
      idToken,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + this.policy.absoluteMs),
    });
    return token;
  }

  /** The live user session of a token, or null when absent, idle too long or past its absolute limit. */
  async resolve(token: string | null): Promise<SessionRow | null> {
    if (!token) return null;
    const idHash = hashToken(token);
    const row = await this.repository.findByHash(idHash);
    if (!row || row.kind !== 'user' || !row.userId) return null;
    return (await this.keepAlive(idHash, row)) ? row : null;
  }

  /** The user of a token's live session (as `resolve`, with the user read in the same query). */
  async resolveUser(token: string | null): Promise<UserRow | null> {
    return (await this.resolveCaller(token))?.user ?? null;
  }

  /**
   * As `resolveUser`, and with `deviceId` the user's membership of that workspace, read in the same query
   * (`membership` null: not a member).
   */
  async resolveCaller(
    token: string | null,
    deviceId?: string,
  ): Promise<Pick<UserSessionRow, 'user' | 'membership'> | null> {
    if (!token) return null;
    const idHash = hashToken(token);
    const found = await this.repository.findUserSession(idHash, deviceId);
    if (!found || found.session.kind !== 'user') return null;
    return (await this.keepAlive(idHash, found.session)) ? { user: found.user, membership: found.membership } : null;
  }

  /** Ends a session past its idle or absolute limit (false), or notes the activity now and then (true). */
  private async keepAlive(idHash: string, row: SessionRow): Promise<boolean> {
    const now = this.now();
    const idleExpired = now.getTime() - row.lastSeenAt.getTime() > this.policy.idleMs;
    if (idleExpired || row.expiresAt <= now) {
      await this.repository.delete(idHash);
      return false;
    }
    if (now.getTime() - row.lastSeenAt.getTime() > touchEveryMs) await this.repository.touch(idHash, now);
    return true;
  }

  async end(token: string | null): Promise<SessionRow | null> {
    if (!token) return null;
    return this.repository.delete(hashToken(token));
  }

  async purgeStale(): Promise<number> {
    const now = this.now();
    return this.repository.deleteStale(now, new Date(now.getTime() - Math.max(this.policy.idleMs, loginTransactionMs)));
  }
}

function newToken(): { token: string; idHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, idHash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
