import { and, eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { projectDrafts } from '../db/schema';

export type ProjectDraftRow = typeof projectDrafts.$inferSelect;

/** The wizard's draft: one per user and workspace. */
export class ProjectDraftRepository {
  constructor(private readonly orm: Orm) {}

  async find(userId: string, deviceId: string): Promise<ProjectDraftRow | null> {
    const rows = await this.orm
      .select()
      .from(projectDrafts)
      .where(and(eq(projectDrafts.userId, userId), eq(projectDrafts.deviceId, deviceId)));
    return rows[0] ?? null;
  }

  async save(userId: string, deviceId: string, step: number, state: Record<string, unknown>): Promise<ProjectDraftRow> {
    const rows = await this.orm
      .insert(projectDrafts)
      .values({ userId, deviceId, step, state })
      .onConflictDoUpdate({
        target: [projectDrafts.userId, projectDrafts.deviceId],
        set: { step, state, updatedAt: sql`now()` },
      })
      .returning();
    return rows[0]!;
  }

  async delete(userId: string, deviceId: string): Promise<void> {
    await this.orm
      .delete(projectDrafts)
      .where(and(eq(projectDrafts.userId, userId), eq(projectDrafts.deviceId, deviceId)));
  }
}
