import { and, eq, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import { memberships, projectMembers, projects } from '../db/schema';

export type ProjectRow = typeof projects.$inferSelect;

/** The rows a permission decision about one project needs, read together. */
export interface ProjectStandingRow {
  membership: { role: string; status: string } | null;
  /** Null when the project does not exist in this workspace. */
  project: ProjectRow | null;
  onTeam: boolean;
}

export class ProjectAccessRepository {
  constructor(private readonly orm: Orm) {}

  /**
   * One statement (every project-scoped request reads it): a row of nothing, the caller's membership and the project
   * joined to it when they exist, and whether the caller is on the team.
   */
  async standing(deviceId: string, projectId: string, userId: string): Promise<ProjectStandingRow> {
    const rows = await this.orm
      .select({
        membership: { role: memberships.role, status: memberships.status },
        project: projects,
        onTeam: sql<boolean>`exists(${this.orm
          .select({ userId: projectMembers.userId })
          .from(projectMembers)
          .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))})`,
      })
      .from(sql`(select 1) as "one"`)
      .leftJoin(memberships, and(eq(memberships.deviceId, deviceId), eq(memberships.userId, userId)))
      .leftJoin(projects, and(eq(projects.deviceId, deviceId), eq(projects.id, projectId)));
    const row = rows[0];
    const project = row?.project ?? null;
    return { membership: row?.membership ?? null, project, onTeam: project !== null && row?.onTeam === true };
  }
}
