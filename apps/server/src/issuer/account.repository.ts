import { and, eq, gt, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { identityAccounts, identitySignups } from '../db/schema';

export type AccountRow = typeof identityAccounts.$inferSelect;
export type SignUpRow = typeof identitySignups.$inferSelect;

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

  async insertSignUp(signUp: {
    tokenHash: string;
    email: string;
    fullName: string;
    passwordHash: string;
    interactionUid: string | null;
    expiresAt: Date;
  }): Promise<void> {
    await this.orm.insert(identitySignups).values(signUp);
  }

  /** The unexpired sign-up of a confirmation token's hash, or null. */
  async findSignUp(tokenHash: string): Promise<SignUpRow | null> {
    const rows = await this.orm
      .select()
      .from(identitySignups)
      .where(and(eq(identitySignups.tokenHash, tokenHash), gt(identitySignups.expiresAt, sql`now()`)));
    return rows[0] ?? null;
  }

  /** Ends every pending sign-up of an address (one was confirmed); drops expired ones of any address. */
  async deleteSignUps(email: string): Promise<void> {
    await this.orm
      .delete(identitySignups)
      .where(sql`${identitySignups.email} = ${email} or ${identitySignups.expiresAt} <= now()`);
  }
}
