import { eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { onboardingStates } from '../db/schema';

export type OnboardingRow = typeof onboardingStates.$inferSelect;

/** One onboarding state per user. */
export class OnboardingRepository {
  constructor(private readonly orm: Orm) {}

  async find(userId: string): Promise<OnboardingRow | null> {
    const rows = await this.orm.select().from(onboardingStates).where(eq(onboardingStates.userId, userId));
    return rows[0] ?? null;
  }

  async save(userId: string, stepActive: number, state: Record<string, unknown>): Promise<void> {
    await this.orm
      .insert(onboardingStates)
      .values({ userId, stepActive, state })
      .onConflictDoUpdate({ target: onboardingStates.userId, set: { stepActive, state, updatedAt: sql`now()` } });
  }

  async delete(userId: string): Promise<void> {
    await this.orm.delete(onboardingStates).where(eq(onboardingStates.userId, userId));
  }
}
