import { eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string;
  fullName: string;
}

export class UserRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * Creates the user on first sign-in; refreshes the e-mail from the issuer afterwards. The name is
   * the issuer's only at first: from then on it is the person's own (edited under My account).
   */
  async upsertFromIdentity(claims: IdentityClaims): Promise<UserRow> {
    const rows = await this.orm
      .insert(users)
      .values(claims)
      .onConflictDoUpdate({
        target: [users.issuer, users.subject],
        set: { email: claims.email, updatedAt: sql`now()` },
      })
      .returning();
    return rows[0]!;
  }

  async findById(id: string): Promise<UserRow | null> {
    const rows = await this.orm.select().from(users).where(eq(users.id, id));
    return rows[0] ?? null;
  }

  /** Changes the profile fields a person edits themselves; answers the row, or null when there is no such user. */
  async updateProfile(id: string, changes: { fullName?: string; jobTitle?: string | null }): Promise<UserRow | null> {
    const rows = await this.orm
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return rows[0] ?? null;
  }
}
