import { and, eq } from 'drizzle-orm';
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

  async standing(deviceId: string, projectId: string, userId: string): Promise<ProjectStandingRow> {
    const [membershipRows, projectRows, teamRows] = await Promise.all([
      this.orm
        .select({ role: memberships.role, status: memberships.status })
        .from(memberships)
        .where(and(eq(memberships.deviceId, deviceId), eq(memberships.userId, userId))),
      this.orm
        .select()
        .from(projects)
        .where(and(eq(projects.deviceId, deviceId), eq(projects.id, projectId))),
      this.orm
        .select({ userId: projectMembers.userId })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId))),
    ]);
    const project = projectRows[0] ?? null;
    return { membership: membershipRows[0] ?? null, project, onTeam: project !== null && teamRows.length > 0 };
  }
}
