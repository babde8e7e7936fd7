import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { authAttempts } from '../db/schema';

/** What the throttle knows about one key in one window. */
export interface AttemptCount {
  count: number;
  /** With `count >= limit`: seconds until enough attempts have left the window to allow one more; else 0. */
  retryAfterSeconds: number;
}

/** Attempts counted by the sign-in throttle, timed by the database's clock (the same for every process). */
export class AuthAttemptRepository {
  constructor(private readonly orm: Orm) {}

  async record(scope: string, keyHash: string): Promise<void> {
    await this.orm.insert(authAttempts).values({ scope, keyHash });
  }

  async countWithin(scope: string, keyHash: string, windowSeconds: number, limit: number): Promise<AttemptCount> {
    const window = sql`make_interval(secs => ${windowSeconds})`;
    const inWindow = and(
      eq(authAttempts.scope, scope),
      eq(authAttempts.keyHash, keyHash),
      gt(authAttempts.at, sql`now() - ${window}`),
    );
    const [counted] = await this.orm
      .select({ count: sql<number>`count(*)::int` })
      .from(authAttempts)
      .where(inWindow);
    const count = Number(counted?.count ?? 0);
    if (count < limit) return { count, retryAfterSeconds: 0 };
    // One more is allowed once the (count - limit + 1) oldest attempts have left the window.
    const [blocking] = await this.orm
      .select({ seconds: sql<number>`ceil(extract(epoch from (${authAttempts.at} + ${window} - now())))::int` })
      .from(authAttempts)
      .where(inWindow)
      .orderBy(authAttempts.at)
      .offset(count - limit)
      .limit(1);
    return { count, retryAfterSeconds: Math.max(1, Number(blocking?.seconds ?? 1)) };
  }

  /** Forgets a key's attempts (a right password ends the count for that account and address). */
  async clear(scope: string, keyHash: string): Promise<void> {
    await this.orm.delete(authAttempts).where(and(eq(authAttempts.scope, scope), eq(authAttempts.keyHash, keyHash)));
  }

  /** Drops attempts older than every window. */
  async prune(olderThanSeconds: number): Promise<void> {
    await this.orm
      .delete(authAttempts)
      .where(lt(authAttempts.at, sql`now() - make_interval(secs => ${olderThanSeconds})`));
  }
}
