import {
  cohortAlreadyOnProjectMessage,
  cohortInProjectRoomsMessage,
  cohortNotOnProjectMessage,
  cohortNotReadyForProjectMessage,
  cohortNotInWorkspaceMessage,
  cohortStatusSchema,
  developmentStageSchema,
  deviceVersionStatusSchema,
  initialsOf,
  isAllowedMove,
  lastTeamMemberMessage,
  memberRoles,
  projectStatusSchema,
  refusedMoveMessage,
  vv40GradeSchema,
  modelRiskOf,
  projectTitleProblem,
  projectTitleTakenMessage,
  questionNotInWorkspaceMessage,
  teamNoMatchMessage,
  type UpdateProject,
  type DevelopmentStage,
  type Project,
  type ProjectList,
  type ProjectListQuery,
  type ProjectOverview,
  type ProjectOverviewQuery,
  type ProjectPerson,
  type ProjectQuestion,
  type ProjectStats,
  type ProjectStatus,
  type ProjectTeam,
} from '@insilico/contracts';
import { decideProject, seesAllProjects, type ProjectStanding } from '../policies/project.policy';
import { decide, grantOf, type WorkspaceGrant } from '../policies/workspace.policy';
import type {
  ProjectCohortRow,
  ProjectFilter,
  ProjectRepository,
  ProjectVersionRow,
  ProjectWithParts,
  QuestionRow,
  ProjectPersonRow,
} from '../repositories/project.repository';
import { ServiceError } from './errors';
import { userPictureUrl } from './picture-urls';
import type { ProjectAccessService } from './project-access.service';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { projectEvent } from '../events/kinds';

/** A project's Stats tab in the web app; it names the workspace, so the link works whichever one is selected. */
export const projectStatsPath = (deviceId: string, projectId: string) =>
  `/projects/view/stats?${new URLSearchParams({ project: projectId, device: deviceId }).toString()}`;

export function toPerson(row: ProjectPersonRow): ProjectPerson {
  const name = row.fullName.trim() || row.email;
  const role = memberRoles.find((known) => known === row.role && row.status === 'ok') ?? null;
  return {
    id: row.userId,
    name,
    initials: initialsOf(name),
    pictureUrl: userPictureUrl({ id: row.userId, pictureFileId: row.pictureFileId, pictureUrl: row.pictureUrl }),
    role,
  };
}

function toQuestion(row: QuestionRow): ProjectQuestion {
  const grades = {
    modelInfluence: vv40GradeSchema.nullable().parse(row.modelInfluence),
    decisionConsequence: vv40GradeSchema.nullable().parse(row.decisionConsequence),
  };
  return {
    id: row.id,
    question: row.question,
    contextOfUse: row.contextOfUse,
    ...grades,
    riskLevel: modelRiskOf(grades),
  };
}

function toCohort(row: Omit<ProjectCohortRow, 'projectId'>) {
  return { id: row.id, name: row.name, size: row.size, status: cohortStatusSchema.parse(row.status) };
}

function toVersion(row: Omit<ProjectVersionRow, 'projectId'>) {
  return { id: row.id, name: row.name, status: deviceVersionStatusSchema.parse(row.status) };
}

const totalOf = (stageCounts: Record<DevelopmentStage, number>) =>
  developmentStageSchema.options.reduce((sum, stage) => sum + stageCounts[stage], 0);

/**
 * Projects of a workspace (issue 5 items 3–5): the overview list, one project, status moves, the project team and
 * the Stats tab. Reads go through the project policy (project.policy.ts); every project-scoped change through
 * `ProjectAccessService.require`.
 */
export class ProjectService {
  constructor(
    private readonly repository: ProjectRepository,
    private readonly access: ProjectAccessService,
    /** Changes and their domain events commit together (issue 20). */
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(userId: string, deviceId: string, query: ProjectListQuery): Promise<ProjectList> {
    const { grant, filter } = await this.listScope(userId, deviceId, query);
    const stageCounts = await this.stageCounts(filter);
    const total = query.stage ? stageCounts[query.stage] : totalOf(stageCounts);
    // limit=0 asks only for the counts.
    const rows =
      query.limit === 0
        ? []
        : await this.repository.list(
            { ...filter, stage: query.stage },
            query.limit === undefined ? undefined : { limit: query.limit, offset: query.offset },
          );
    return {
      items: rows.map((row) => this.toProject(row, grant, userId)),
      total,
      stageCounts,
      canCreate: decide('project.create', grant).allowed,
    };
  }

  /** The overview's first screen in one answer: per stage its count and first page (one read of the parts). */
  async overview(userId: string, deviceId: string, query: ProjectOverviewQuery): Promise<ProjectOverview> {
    const { grant, filter } = await this.listScope(userId, deviceId, query);
    const { stageCounts, rows } = await this.repository.stagePages(filter, query.limit);
    return {
      groups: developmentStageSchema.options.map((stage) => ({
        stage,
        total: stageCounts.get(stage) ?? 0,
        items: rows
          .filter((row) => row.project.developmentStage === stage)
          .map((row) => this.toProject(row, grant, userId)),
      })),
      total: [...stageCounts.values()].reduce((sum, n) => sum + n, 0),
      canCreate: decide('project.create', grant).allowed,
    };
  }

  /** Who may list (every workspace member; guests only their projects) and the filter that says so. */
  private async listScope(userId: string, deviceId: string, query: { status?: ProjectStatus; search: string }) {
    const grant = await callerGrant(userId, deviceId, (device, user) => this.repository.membership(device, user));
    authorize('workspace.view', grant);
    const filter = {
      deviceId,
      status: query.status,
      search: query.search,
      memberId: seesAllProjects(grant) ? undefined : userId,
    };
    return { grant, filter };
  }

  private async stageCounts(filter: ProjectFilter): Promise<Record<DevelopmentStage, number>> {
    const counts = await this.repository.stageCounts(filter);
    return Object.fromEntries(developmentStageSchema.options.map((stage) => [stage, counts.get(stage) ?? 0])) as Record<
      DevelopmentStage,
      number
    >;
  }

  /**
   * One project: the caller's grant (read with the session when the path addresses the workspace), then the project
   * with its team, from which the project policy decides (was the standing and then the project again).
   */
  async get(userId: string, deviceId: string, projectId: string): Promise<Project> {
    const grant = await callerGrant(userId, deviceId, (device, user) => this.repository.membership(device, user));
    // Outsiders learn nothing: refused before the project is read.
    authorize('workspace.view', grant);
    const row = await this.repository.find(deviceId, projectId);
    const onTeam = row?.parts.team.some((member) => member.userId === userId) ?? false;
    const { project, standing } = this.access.decide('project.read', grant, row, onTeam);
    return this.toProject(project, standing.grant, userId);
  }

  async changeStatus(
    userId: string,
    deviceId: string,
    projectId: string,
    to: ProjectStatus,
    reason: string,
  ): Promise<Project> {
    const { project, standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    const from = projectStatusSchema.parse(project.status);
    if (!isAllowedMove(from, to)) throw new ServiceError(409, 'status_move_refused', refusedMoveMessage(from, to));
    const changed = await this.unitOfWork.run(async (tx) => {
      if (!(await tx.projects.changeStatus(projectId, from, to, userId))) return false;
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'project.status_changed'),
        before: { status: from },
        after: { status: to, name: project.name },
        reason,
      });
      return true;
    });
    if (!changed)
      throw new ServiceError(
        409,
        'status_changed',
        'Somebody else changed the status of this project just now. Reload the page to see its current status.',
      );
    // The team hears of it from the event (ProjectNotifications), not from here.
    return this.project(userId, deviceId, projectId, standing.grant);
  }

  /**
   * Changes the title and/or the question of interest (project.manage), with the wizard's rules: the spec §5 title
   * rule and the workspace-unique title (409), and a question of this workspace (404 otherwise).
   */
  async update(userId: string, deviceId: string, projectId: string, change: UpdateProject): Promise<Project> {
    const { project, standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    const name = change.name?.trim();
    if (change.name !== undefined) {
      const problem = projectTitleProblem(change.name);
      if (problem) throw new ServiceError(422, 'invalid_title', problem);
    }
    const outcome = await this.unitOfWork.run(async (tx) => {
      const done = await tx.projects.update(deviceId, projectId, { name, questionId: change.questionId });
      if (done === 'updated')
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'project.updated'),
          before: { name: project.name, questionId: project.questionId },
          after: { name: name ?? project.name, questionId: change.questionId ?? project.questionId },
        });
      return done;
    });
    if (outcome === 'title_taken') throw new ServiceError(409, 'project_title_taken', projectTitleTakenMessage);
    if (outcome === 'question_not_found')
      throw new ServiceError(404, 'question_not_found', questionNotInWorkspaceMessage);
    return this.project(userId, deviceId, projectId, standing.grant);
  }

  /** Adds a ready patient cohort of the workspace (project.manage). */
  async addCohort(userId: string, deviceId: string, projectId: string, cohortId: string): Promise<Project> {
    const { standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    const outcome = await this.unitOfWork.run(async (tx) => {
      const done = await tx.projects.addCohort(deviceId, projectId, cohortId, userId);
      if (done === 'added')
        tx.events.record({ ...projectEvent(userId, deviceId, projectId, 'project.cohort_added'), after: { cohortId } });
      return done;
    });
    if (outcome === 'not_found') throw new ServiceError(404, 'cohort_not_found', cohortNotInWorkspaceMessage);
    if (outcome === 'not_ready') throw new ServiceError(409, 'cohort_not_ready', cohortNotReadyForProjectMessage);
    if (outcome === 'already') throw new ServiceError(409, 'cohort_on_project', cohortAlreadyOnProjectMessage);
    return this.project(userId, deviceId, projectId, standing.grant);
  }

  /** Removes a cohort (project.manage), refused while rooms of the project show its patients. */
  async removeCohort(userId: string, deviceId: string, projectId: string, cohortId: string): Promise<Project> {
    const { standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    const removal = await this.unitOfWork.run(async (tx) => {
      const done = await tx.projects.removeCohort(projectId, cohortId);
      if (done.outcome === 'removed')
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'project.cohort_removed'),
          before: { cohortId },
        });
      return done;
    });
    if (removal.outcome === 'not_on_project') throw new ServiceError(404, 'not_on_project', cohortNotOnProjectMessage);
    if (removal.outcome === 'in_rooms')
      throw new ServiceError(409, 'cohort_in_rooms', cohortInProjectRoomsMessage(removal.rooms));
    return this.project(userId, deviceId, projectId, standing.grant);
  }

  async team(userId: string, deviceId: string, projectId: string): Promise<ProjectTeam> {
    const { standing } = await this.access.require('project.read', userId, deviceId, projectId);
    return this.teamOf(deviceId, projectId, standing);
  }

  async addMember(userId: string, deviceId: string, projectId: string, memberId: string): Promise<ProjectTeam> {
    const { project, standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    // Only people already working in the workspace (spec §5 "Team search"); the rest get the search's message.
    const membership = grantOf(await this.repository.membership(deviceId, memberId));
    if (membership?.status !== 'ok') throw new ServiceError(422, 'no_match', teamNoMatchMessage);
    const added = await this.unitOfWork.run(async (tx) => {
      if (!(await tx.projects.addMember(projectId, memberId, userId))) return false;
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'project.member_added'),
        after: { memberId, name: project.name },
      });
      return true;
    });
    if (!added) throw new ServiceError(409, 'already_on_team', 'This user is already on the project team.');
    // The new member hears of it from the event (ProjectNotifications).
    return this.teamOf(deviceId, projectId, { ...standing, onTeam: standing.onTeam || memberId === userId });
  }

  async removeMember(userId: string, deviceId: string, projectId: string, memberId: string): Promise<ProjectTeam> {
    const { standing } = await this.access.require('project.manage', userId, deviceId, projectId);
    const outcome = await this.unitOfWork.run(async (tx) => {
      const done = await tx.projects.removeMember(projectId, memberId);
      if (done === 'removed')
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'project.member_removed'),
          before: { memberId },
        });
      return done;
    });
    if (outcome === 'not_on_team') throw new ServiceError(404, 'not_on_team', 'This user is not on the project team.');
    if (outcome === 'last_member') throw new ServiceError(409, 'last_team_member', lastTeamMemberMessage);
    return this.teamOf(deviceId, projectId, { ...standing, onTeam: standing.onTeam && memberId !== userId });
  }

  async stats(userId: string, deviceId: string, projectId: string): Promise<ProjectStats> {
    await this.access.require('project.read', userId, deviceId, projectId);
    const ids = [projectId];
    const [cohorts, versions, team, rooms] = await Promise.all([
      this.repository.cohorts(ids),
      this.repository.deviceVersions(ids),
      this.repository.teams(deviceId, ids),
      this.repository.roomCount(projectId),
    ]);
    const patients = await this.repository.patientCounts(cohorts.map((cohort) => cohort.id));
    const byStatus: ProjectStats['deviceVersions']['byStatus'] = {};
    for (const version of versions) {
      const status = deviceVersionStatusSchema.parse(version.status);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
    const cohortStats = cohorts.map((cohort) => ({ ...toCohort(cohort), patients: patients.get(cohort.id) ?? 0 }));
    return {
      cohorts: cohortStats,
      patients: cohortStats.reduce((sum, cohort) => sum + cohort.patients, 0),
      deviceVersions: { items: versions.map(toVersion), byStatus },
      rooms: { total: rooms },
      // No simulations table exists yet (issue 7): nothing to count, said honestly.
      simulations: { total: 0, byStatus: {} },
      team: team.map(toPerson),
    };
  }

  private async project(userId: string, deviceId: string, projectId: string, grant: WorkspaceGrant) {
    const row = await this.repository.find(deviceId, projectId);
    if (!row) throw new ServiceError(404, 'project_not_found', 'This project does not exist in this device workspace.');
    return this.toProject(row, grant, userId);
  }

  private async teamOf(deviceId: string, projectId: string, standing: ProjectStanding): Promise<ProjectTeam> {
    const rows = await this.repository.teams(deviceId, [projectId]);
    return { items: rows.map(toPerson), canManage: decideProject('project.manage', standing).allowed };
  }

  private toProject(row: ProjectWithParts, grant: WorkspaceGrant, userId: string): Project {
    const { project, question, parts } = row;
    const team = parts.team;
    const standing: ProjectStanding = { grant, onTeam: team.some((member) => member.userId === userId) };
    return {
      id: project.id,
      name: project.name,
      developmentStage: developmentStageSchema.parse(project.developmentStage),
      status: projectStatusSchema.parse(project.status),
      question: question ? toQuestion(question) : null,
      cohorts: parts.cohorts.map(toCohort),
      deviceVersions: parts.versions.map(toVersion),
      team: team.map(toPerson),
      createdAt: project.createdAt.toISOString(),
      statusChangedAt: project.statusChangedAt?.toISOString() ?? null,
      canManage: decideProject('project.manage', standing).allowed,
      canComment: decideProject('project.comment', standing).allowed,
    };
  }
}
