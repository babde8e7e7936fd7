import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { memberships, sessions, users, type LoginTransaction } from '../db/schema';
import type { UserRow } from './user.repository';

export type { LoginTransaction };
export type SessionRow = typeof sessions.$inferSelect;

/** A user session, its user, and (when a workspace was asked for) the user's membership of it (null: none). */
export interface UserSessionRow {
  session: SessionRow;
  user: UserRow;
  membership?: { role: string; status: string } | null;
}

export interface NewSession {
  idHash: string;
  kind: 'login' | 'user';
  userId: string | null;
  login: LoginTransaction | null;
  idToken: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export class SessionRepository {
  // Built once (drizzle rebuilds a query's SQL on every call otherwise; PostgreSQL also keeps its plan per connection).
  private readonly userSessionQuery;
  private readonly userSessionMembershipQuery;

  constructor(private readonly orm: Orm) {
    this.userSessionQuery = orm
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.idHash, sql.placeholder('idHash')))
      .prepare('session_with_user');
    this.userSessionMembershipQuery = orm
      .select({ session: sessions, user: users, membership: { role: memberships.role, status: memberships.status } })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(
        memberships,
        and(eq(memberships.userId, sessions.userId), eq(memberships.deviceId, sql.placeholder('deviceId'))),
      )
      .where(eq(sessions.idHash, sql.placeholder('idHash')))
      .prepare('session_with_user_and_membership');
  }

  async insert(session: NewSession): Promise<void> {
    await this.orm.insert(sessions).values({ ...session, lastSeenAt: session.createdAt });
  }

  async findByHash(idHash: string): Promise<SessionRow | null> {
    const rows = await this.orm.select().from(sessions).where(eq(sessions.idHash, idHash));
    return rows[0] ?? null;
  }

  /**
   * A user session and its user in one query: every signed-in request reads both. With `deviceId` (the workspace the
   * request addresses) the user's membership of it comes in the same query (docs/decisions/session-and-membership.md).
   */
  async findUserSession(idHash: string, deviceId?: string): Promise<UserSessionRow | null> {
    if (deviceId === undefined) return (await this.userSessionQuery.execute({ idHash }))[0] ?? null;
    const rows = await this.userSessionMembershipQuery.execute({ idHash, deviceId });
    return rows[0] ?? null;
  }

  async touch(idHash: string, at: Date): Promise<void> {
    await this.orm.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.idHash, idHash));
  }

  /**
   * Deletes the session and answers whether it existed (so a login transaction is used once); with `kind`, only a
   * session of that kind (a signed-in session is never used up as a login transaction).
   */
  async delete(idHash: string, kind?: SessionRow['kind']): Promise<SessionRow | null> {
    const rows = await this.orm
      .delete(sessions)
      .where(and(eq(sessions.idHash, idHash), kind ? eq(sessions.kind, kind) : undefined))
      .returning();
    return rows[0] ?? null;
  }

  /** Removes sessions past their absolute expiry or idle since before `idleBefore`. */
  async deleteStale(now: Date, idleBefore: Date): Promise<number> {
    const rows = await this.orm
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleBefore)))
      .returning({ idHash: sessions.idHash });
    return rows.length;
  }
}
