import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  cohorts,
  deviceVersions,
  memberships,
  projectCohorts,
  projectDeviceVersions,
  projectMembers,
  projects,
  questionsOfInterest,
} from '../db/schema';
import { ProjectDraftRepository } from './project-draft.repository';

export type NewProject = typeof projects.$inferInsert;

/** What a new project links to, as found in its workspace (ids of another workspace are simply absent). */
export interface LinkedRows {
  cohorts: { id: string; name: string; status: string }[];
  versions: { id: string; name: string; status: string; targetProjectId: string | null }[];
  /** Memberships of the named users in this workspace (any status). */
  members: { userId: string; status: string }[];
  questionFound: boolean;
  basedOnFound: boolean;
}

/** The reads and writes of creating one project; `UnitOfWork.run` runs them as one unit. */
export class ProjectCreationRepository {
  readonly drafts: ProjectDraftRepository;

  constructor(private readonly orm: Orm) {
    this.drafts = new ProjectDraftRepository(orm);
  }

  /** Whether a project of the workspace already has this title (any letter case). */
  async titleTaken(deviceId: string, name: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.deviceId, deviceId), sql`lower(${projects.name}) = lower(${name})`));
    return rows.length > 0;
  }

  /**
   * Reads everything the new project names, scoped to the workspace. The versions are locked until the
   * transaction ends, so a version cannot turn ready between this read and the link written after it.
   */
  async linked(
    deviceId: string,
    request: {
      cohortIds: string[];
      versionIds: string[];
      userIds: string[];
      questionId: string | null;
      basedOnProjectId: string | null;
    },
  ): Promise<LinkedRows> {
    const none = Promise.resolve([]);
    const [cohortRows, versionRows, memberRows, questionRows, basedOnRows] = await Promise.all([
      request.cohortIds.length === 0
        ? none
        : this.orm
            .select({ id: cohorts.id, name: cohorts.name, status: cohorts.status })
            .from(cohorts)
            .where(and(eq(cohorts.deviceId, deviceId), inArray(cohorts.id, request.cohortIds))),
      request.versionIds.length === 0
        ? none
        : this.orm
            .select({
              id: deviceVersions.id,
              name: deviceVersions.name,
              status: deviceVersions.status,
              targetProjectId: deviceVersions.targetProjectId,
            })
            .from(deviceVersions)
            .where(and(eq(deviceVersions.deviceId, deviceId), inArray(deviceVersions.id, request.versionIds)))
            .for('update'),
      request.userIds.length === 0
        ? none
        : this.orm
            .select({ userId: memberships.userId, status: memberships.status })
            .from(memberships)
            .where(and(eq(memberships.deviceId, deviceId), inArray(memberships.userId, request.userIds))),
      request.questionId === null
        ? none
        : this.orm
            .select({ id: questionsOfInterest.id })
            .from(questionsOfInterest)
            .where(and(eq(questionsOfInterest.deviceId, deviceId), eq(questionsOfInterest.id, request.questionId))),
      request.basedOnProjectId === null
        ? none
        : this.orm
            .select({ id: projects.id })
            .from(projects)
            .where(and(eq(projects.deviceId, deviceId), eq(projects.id, request.basedOnProjectId))),
    ]);
    return {
      cohorts: cohortRows,
      versions: versionRows,
      members: memberRows,
      questionFound: questionRows.length > 0,
      basedOnFound: basedOnRows.length > 0,
    };
  }

  /** Inserts the project; null when the workspace already has a project of that title (any letter case). */
  async insertProject(project: NewProject): Promise<{ id: string } | null> {
    const rows = await this.orm.insert(projects).values(project).onConflictDoNothing().returning({ id: projects.id });
    return rows[0] ?? null;
  }

  async addMembers(projectId: string, userIds: string[], addedBy: string): Promise<void> {
    if (userIds.length === 0) return;
    await this.orm.insert(projectMembers).values(userIds.map((userId) => ({ projectId, userId, addedBy })));
  }

  async addCohorts(projectId: string, cohortIds: string[], addedBy: string): Promise<void> {
    if (cohortIds.length === 0) return;
    await this.orm.insert(projectCohorts).values(cohortIds.map((cohortId) => ({ projectId, cohortId, addedBy })));
  }

  async addVersions(projectId: string, versionIds: string[], addedBy: string): Promise<void> {
    if (versionIds.length === 0) return;
    await this.orm
      .insert(projectDeviceVersions)
      .values(versionIds.map((versionId) => ({ projectId, versionId, addedBy })));
  }

  /** Versions still processing join the project when their job marks them ready (spec §4). */
  async targetVersions(projectId: string, versionIds: string[]): Promise<void> {
    if (versionIds.length === 0) return;
    await this.orm
      .update(deviceVersions)
      .set({ targetProjectId: projectId })
      .where(inArray(deviceVersions.id, versionIds));
  }
}
