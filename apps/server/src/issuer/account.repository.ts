import { eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { identityAccounts } from '../db/schema';

export type AccountRow = typeof identityAccounts.$inferSelect;

/** Local accounts of the embedded issuer. */
export class AccountRepository {
  constructor(private readonly orm: Orm) {}

  async findByEmail(email: string): Promise<AccountRow | null> {
    const rows = await this.orm.select().from(identityAccounts).where(eq(identityAccounts.email, email));
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<AccountRow | null> {
    const rows = await this.orm.select().from(identityAccounts).where(eq(identityAccounts.id, id));
    return rows[0] ?? null;
  }

  /** Answers null when the e-mail is taken. */
  async insert(account: { email: string; fullName: string; passwordHash: string }): Promise<AccountRow | null> {
    const rows = await this.orm.insert(identityAccounts).values(account).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async updatePassword(id: string, passwordHash: string): Promise<void> {
    await this.orm
      .update(identityAccounts)
      .set({ passwordHash, passwordChangedAt: sql`now()` })
      .where(eq(identityAccounts.id, id));
  }
}
