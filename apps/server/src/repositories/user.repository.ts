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

  /** Creates the user on first sign-in; refreshes e-mail and name from the issuer afterwards. */
  async upsertFromIdentity(claims: IdentityClaims): Promise<UserRow> {
    const rows = await this.orm
      .insert(users)
      .values(claims)
      .onConflictDoUpdate({
        target: [users.issuer, users.subject],
        set: { email: claims.email, fullName: claims.fullName, updatedAt: sql`now()` },
      })
      .returning();
    return rows[0]!;
  }

  async findById(id: string): Promise<UserRow | null> {
    const rows = await this.orm.select().from(users).where(eq(users.id, id));
    return rows[0] ?? null;
  }
}
