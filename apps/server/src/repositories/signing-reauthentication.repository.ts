import { eq, lt } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { signingReauthentications } from '../db/schema';

export type SigningReauthenticationRow = typeof signingReauthentications.$inferSelect;

/** Signings waiting for the identity provider's fresh sign-in (migration 0042), each taken once. */
export class SigningReauthenticationRepository {
  constructor(private readonly orm: Orm) {}

  /** Stores a signing in flight; ones past their expiry are dropped on the way. */
  async insert(row: SigningReauthenticationRow): Promise<void> {
    await this.orm.delete(signingReauthentications).where(lt(signingReauthentications.expiresAt, row.createdAt));
    await this.orm.insert(signingReauthentications).values(row);
  }

  /** Removes and answers the signing of this state's hash (so a callback can complete it once), or null. */
  async take(stateHash: string): Promise<SigningReauthenticationRow | null> {
    const rows = await this.orm
      .delete(signingReauthentications)
      .where(eq(signingReauthentications.stateHash, stateHash))
      .returning();
    return rows[0] ?? null;
  }
}
