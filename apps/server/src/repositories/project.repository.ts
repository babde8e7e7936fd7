import type { DevelopmentStage, ProjectStatus } from '@insilico/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  getTableName,
  ilike,
  inArray,
  lte,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { Orm } from '../db/client';
import { membershipQuery } from './device.repository';
import {
  cohortPatients,
  cohorts,
  deviceVersions,
  memberships,
  projectCohorts,
  projectDeviceVersions,
  projectMembers,
  projects,
  questionsOfInterest,
  rooms,
  users,
} from '../db/schema';

export type ProjectTableRow = typeof projects.$inferSelect;
export type QuestionRow = typeof questionsOfInterest.$inferSelect;

/** A project with its question (null when it has none). */
export interface ProjectWithQuestion {
  project: ProjectTableRow;
  question: QuestionRow | null;
}

/** A team member with what avatars need and their standing in the project's workspace (null: left it). */
export interface TeamMemberRow {
  projectId: string;
  userId: string;
  fullName: string;
  email: string;
  pictureFileId: string | null;
  pictureUrl: string | null;
  role: string | null;
  status: string | null;
  addedAt: Date;
}

export interface ProjectCohortRow {
  projectId: string;
  id: string;
  name: string;
  size: number;
  status: string;
}

export interface ProjectVersionRow {
  projectId: string;
  id: string;
  name: string;
  status: string;
}

/** A team member as the project lists show them (a `TeamMemberRow` without its project and time added). */
export type ProjectPersonRow = Omit<TeamMemberRow, 'projectId' | 'addedAt'>;

/** A project team someone left with the workspace, and who took their place when they were its only member. */
export interface LeftProjectTeam {
  projectId: string;
  name: string;
  handedTo: string | null;
}

/** A project's team, cohorts and device versions, each in the order the lists show them. */
export interface ProjectPartsRow {
  team: ProjectPersonRow[];
  cohorts: Omit<ProjectCohortRow, 'projectId'>[];
  versions: Omit<ProjectVersionRow, 'projectId'>[];
}

/** A project with its question and parts. */
export type ProjectWithParts = ProjectWithQuestion & { parts: ProjectPartsRow };

/** A project row read with the part columns of `partColumns` as one object. */
function withParts(row: ProjectWithQuestion & ProjectPartsRow): ProjectWithParts {
  return {
    project: row.project,
    question: row.question,
    parts: { team: row.team, cohorts: row.cohorts, versions: row.versions },
  };
}

/** The overview's first screen: per development stage its count and its first page, newest first. */
export interface StagePages {
  /** Stages without a project of the filter are absent. */
  stageCounts: Map<DevelopmentStage, number>;
  /** Each stage's first page, newest first, with the projects' parts. */
  rows: ProjectWithParts[];
}

/** Which projects a list reads: the workspace's, optionally only one status, a name search, or one user's team. */
export interface ProjectFilter {
  deviceId: string;
  status?: ProjectStatus;
  /** Only one development stage (an overview group). */
  stage?: DevelopmentStage | undefined;
  /** Case-insensitive part of the name. */
  search?: string;
  /** Only projects this user is on (guests). */
  memberId?: string;
}

/** A filter's values, or placeholders of a prepared statement (given at execution). */
type Param<T> = T | Placeholder;
interface FilterParams {
  deviceId: Param<string>;
  status?: Param<ProjectStatus> | undefined;
  stage?: Param<DevelopmentStage> | undefined;
  /** A LIKE pattern (`likePattern`). */
  searchPattern?: Param<string> | undefined;
  memberId?: Param<string> | undefined;
}

/** The overview's statement, prepared once per kind of filter (which of status, search and guest it has). */
type StagePagesKind = Record<'status' | 'search' | 'memberId', boolean>;

/** A unique index refused the write (PostgreSQL 23505), whether the driver or the ORM wrapper reports it. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) =>
    typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined;
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | null)?.cause) === '23505';
}

/**
 * A column with its table's name, whatever the statement around it (a statement on one table leaves the table out,
 * which in a subquery of another table would name the wrong one).
 */
function q(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/** `%` and `_` typed by a user are literal characters, not patterns. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A filter's values as the conditions take them (the search as its LIKE pattern). */
function filterParams(filter: ProjectFilter): FilterParams {
  const { search, ...rest } = filter;
  return { ...rest, searchPattern: search ? likePattern(search) : undefined };
}

/**
 * Projects, their teams, cohorts and device versions. A list reads each table once for all its projects (no query
 * per project), so the overview stays fast with a thousand projects.
 */
export class ProjectRepository {
  // Prepared on first use (repositories of a unit of work are made per transaction and may never need it).
  private membershipOf?: ReturnType<typeof membershipQuery>;
  private readonly stagePagesQueries = new Map<string, ReturnType<ProjectRepository['prepareStagePages']>>();

  constructor(private readonly orm: Orm) {}

  /**
   * The projects of a filter, newest first (ties by id, so the order is stable and pages do not overlap), with
   * their questions and parts; one page of them when `page` is given.
   */
  async list(filter: ProjectFilter, page?: { limit: number; offset: number }): Promise<ProjectWithParts[]> {
    const query = this.orm
      .select({
        project: projects,
        question: questionsOfInterest,
        ...this.partColumns(filter.deviceId, q(projects.id)),
      })
      .from(projects)
      .leftJoin(questionsOfInterest, eq(questionsOfInterest.id, projects.questionId))
      .where(and(...this.conditions(filterParams(filter))))
      .orderBy(desc(projects.createdAt), asc(projects.id));
    const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
    return rows.map(withParts);
  }

  /** How many projects of a filter (its stage ignored) there are per development stage. */
  async stageCounts(filter: ProjectFilter): Promise<Map<DevelopmentStage, number>> {
    const rows = await this.orm
      .select({ stage: projects.developmentStage, n: count() })
      .from(projects)
      .where(and(...this.conditions(filterParams({ ...filter, stage: undefined }))))
      .groupBy(projects.developmentStage);
    return new Map(rows.map((row) => [row.stage, row.n]));
  }

  /**
   * Per development stage of a filter (its stage ignored) the count and the first `limit` projects with their
   * questions and parts, in one statement (the overview is the most read page: each statement is a turn of the
   * embedded database's one executor). Window functions count and rank within each stage before the page is cut.
   */
  async stagePages(filter: ProjectFilter, limit: number): Promise<StagePages> {
    // Built and prepared once per kind of filter (the most read page: no SQL building per request).
    const kind: StagePagesKind = {
      status: filter.status !== undefined,
      search: Boolean(filter.search),
      memberId: filter.memberId !== undefined,
    };
    const name = `project_stage_pages_${Number(kind.status)}${Number(kind.search)}${Number(kind.memberId)}`;
    let query = this.stagePagesQueries.get(name);
    if (!query) {
      query = this.prepareStagePages(kind, name);
      this.stagePagesQueries.set(name, query);
    }
    const rows = await query.execute({
      deviceId: filter.deviceId,
      limit,
      ...(kind.status ? { status: filter.status } : {}),
      ...(kind.search && filter.search ? { search: likePattern(filter.search) } : {}),
      ...(kind.memberId ? { memberId: filter.memberId } : {}),
    });
    const stageCounts = new Map<DevelopmentStage, number>();
    for (const row of rows) stageCounts.set(row.project.developmentStage, Number(row.stageTotal));
    return { stageCounts, rows: rows.map(withParts) };
  }

  /**
   * The overview's statement for one kind of filter: window functions count and rank within each stage before the
   * page is cut; the parts come as JSON columns.
   */
  private prepareStagePages(kind: StagePagesKind, name: string) {
    const columns = getTableColumns(projects);
    const deviceId = sql.placeholder('deviceId');
    const ranked = this.orm
      .select({
        ...columns,
        stagePosition:
          sql<number>`row_number() over (partition by ${projects.developmentStage} order by ${projects.createdAt} desc, ${projects.id} asc)`.as(
            'stage_position',
          ),
        stageTotal: sql<number>`count(*) over (partition by ${projects.developmentStage})`.as('stage_total'),
      })
      .from(projects)
      .where(
        and(
          ...this.conditions({
            deviceId,
            status: kind.status ? sql.placeholder('status') : undefined,
            searchPattern: kind.search ? sql.placeholder('search') : undefined,
            memberId: kind.memberId ? sql.placeholder('memberId') : undefined,
          }),
        ),
      )
      .as('ranked');
    const project = Object.fromEntries(
      Object.keys(columns).map((key) => [key, ranked[key as keyof typeof columns]]),
    ) as {
      [K in keyof typeof columns]: (typeof ranked)[K];
    };
    return this.orm
      .select({
        project,
        question: questionsOfInterest,
        stageTotal: ranked.stageTotal,
        ...this.partColumns(deviceId, ranked.id),
      })
      .from(ranked)
      .leftJoin(questionsOfInterest, eq(questionsOfInterest.id, ranked.questionId))
      .where(lte(ranked.stagePosition, sql.placeholder('limit')))
      .orderBy(desc(ranked.createdAt), asc(ranked.id))
      .prepare(name);
  }

  /**
   * A project's team, cohorts and device versions as JSON arrays, each read by a subquery on the project's id, in
   * the order of `teams`, `cohorts` and `deviceVersions`.
   */
  private partColumns(deviceId: Param<string>, projectId: SQL | AnyColumn) {
    return {
      team: sql<ProjectPersonRow[]>`coalesce((
        select json_agg(json_build_object(
          'userId', ${q(projectMembers.userId)}, 'fullName', ${q(users.fullName)}, 'email', ${q(users.email)},
          'pictureFileId', ${q(users.pictureFileId)}, 'pictureUrl', ${q(users.pictureUrl)},
          'role', ${q(memberships.role)}, 'status', ${q(memberships.status)}
        ) order by ${q(projectMembers.addedAt)} asc, ${q(projectMembers.userId)} asc)
        from ${projectMembers}
        inner join ${users} on ${q(users.id)} = ${q(projectMembers.userId)}
        left join ${memberships} on ${q(memberships.userId)} = ${q(projectMembers.userId)} and ${q(memberships.deviceId)} = ${deviceId}
        where ${q(projectMembers.projectId)} = ${projectId}
      ), '[]'::json)`.as('team'),
      cohorts: sql<Omit<ProjectCohortRow, 'projectId'>[]>`coalesce((
        select json_agg(json_build_object(
          'id', ${q(cohorts.id)}, 'name', ${q(cohorts.name)}, 'size', ${q(cohorts.size)}, 'status', ${q(cohorts.status)}
        ) order by ${q(projectCohorts.addedAt)} asc, ${q(cohorts.name)} asc)
        from ${projectCohorts}
        inner join ${cohorts} on ${q(cohorts.id)} = ${q(projectCohorts.cohortId)}
        where ${q(projectCohorts.projectId)} = ${projectId}
      ), '[]'::json)`.as('cohorts'),
      versions: sql<Omit<ProjectVersionRow, 'projectId'>[]>`coalesce((
        select json_agg(json_build_object(
          'id', ${q(deviceVersions.id)}, 'name', ${q(deviceVersions.name)}, 'status', ${q(deviceVersions.status)}
        ) order by ${q(projectDeviceVersions.addedAt)} asc, ${q(deviceVersions.name)} asc)
        from ${projectDeviceVersions}
        inner join ${deviceVersions} on ${q(deviceVersions.id)} = ${q(projectDeviceVersions.versionId)}
        where ${q(projectDeviceVersions.projectId)} = ${projectId}
      ), '[]'::json)`.as('versions'),
    };
  }

  private conditions(filter: FilterParams): SQL[] {
    const conditions: SQL[] = [eq(projects.deviceId, filter.deviceId)];
    if (filter.status) conditions.push(eq(projects.status, filter.status));
    if (filter.stage) conditions.push(eq(projects.developmentStage, filter.stage));
    if (filter.searchPattern) conditions.push(ilike(projects.name, filter.searchPattern));
    if (filter.memberId)
      conditions.push(
        inArray(
          projects.id,
          this.orm
            .select({ id: projectMembers.projectId })
            .from(projectMembers)
            .where(eq(projectMembers.userId, filter.memberId)),
        ),
      );
    return conditions;
  }

  /** One project of the workspace with its question and parts, in one statement. */
  async find(deviceId: string, projectId: string): Promise<ProjectWithParts | null> {
    const rows = await this.orm
      .select({ project: projects, question: questionsOfInterest, ...this.partColumns(deviceId, q(projects.id)) })
      .from(projects)
      .leftJoin(questionsOfInterest, eq(questionsOfInterest.id, projects.questionId))
      .where(and(eq(projects.deviceId, deviceId), eq(projects.id, projectId)));
    const row = rows[0];
    return row ? withParts(row) : null;
  }

  /** The teams of these projects, in the order people were added. */
  async teams(deviceId: string, projectIds: readonly string[]): Promise<TeamMemberRow[]> {
    if (projectIds.length === 0) return [];
    return this.orm
      .select({
        projectId: projectMembers.projectId,
        userId: projectMembers.userId,
        fullName: users.fullName,
        email: users.email,
        pictureFileId: users.pictureFileId,
        pictureUrl: users.pictureUrl,
        role: memberships.role,
        status: memberships.status,
        addedAt: projectMembers.addedAt,
      })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .leftJoin(memberships, and(eq(memberships.userId, projectMembers.userId), eq(memberships.deviceId, deviceId)))
      .where(inArray(projectMembers.projectId, [...projectIds]))
      .orderBy(asc(projectMembers.addedAt), asc(projectMembers.userId));
  }

  async cohorts(projectIds: readonly string[]): Promise<ProjectCohortRow[]> {
    if (projectIds.length === 0) return [];
    return this.orm
      .select({
        projectId: projectCohorts.projectId,
        id: cohorts.id,
        name: cohorts.name,
        size: cohorts.size,
        status: cohorts.status,
      })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(inArray(projectCohorts.projectId, [...projectIds]))
      .orderBy(asc(projectCohorts.addedAt), asc(cohorts.name));
  }

  async deviceVersions(projectIds: readonly string[]): Promise<ProjectVersionRow[]> {
    if (projectIds.length === 0) return [];
    return this.orm
      .select({
        projectId: projectDeviceVersions.projectId,
        id: deviceVersions.id,
        name: deviceVersions.name,
        status: deviceVersions.status,
      })
      .from(projectDeviceVersions)
      .innerJoin(deviceVersions, eq(deviceVersions.id, projectDeviceVersions.versionId))
      .where(inArray(projectDeviceVersions.projectId, [...projectIds]))
      .orderBy(asc(projectDeviceVersions.addedAt), asc(deviceVersions.name));
  }

  /**
   * Moves the status only if it still is `from` (two people moving at once: one wins, the other is told the
   * status changed). Null when it was not `from` any more.
   */
  async changeStatus(
    projectId: string,
    from: ProjectStatus,
    to: ProjectStatus,
    userId: string,
  ): Promise<ProjectTableRow | null> {
    const rows = await this.orm
      .update(projects)
      .set({ status: to, statusChangedAt: sql`now()`, statusChangedBy: userId, updatedAt: sql`now()` })
      .where(and(eq(projects.id, projectId), eq(projects.status, from)))
      .returning();
    return rows[0] ?? null;
  }

  /** The caller's workspace membership of another user (team additions accept only `ok` members). */
  async membership(deviceId: string, userId: string): Promise<{ role: string; status: string } | null> {
    this.membershipOf ??= membershipQuery(this.orm);
    const rows = await this.membershipOf.execute({ deviceId, userId });
    return rows[0] ?? null;
  }

  /** Adds a user to a team; false when they already are on it. */
  async addMember(projectId: string, userId: string, addedBy: string): Promise<boolean> {
    const rows = await this.orm
      .insert(projectMembers)
      .values({ projectId, userId, addedBy })
      .onConflictDoNothing()
      .returning({ userId: projectMembers.userId });
    return rows.length > 0;
  }

  /**
   * Removes a user unless they are the last one. The project row is locked first, so two removals at once cannot
   * both see "someone else remains".
   */
  async removeMember(projectId: string, userId: string): Promise<'removed' | 'not_on_team' | 'last_member'> {
    return this.orm.transaction(async (tx) => {
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('update');
      const team = await tx
        .select({ userId: projectMembers.userId })
        .from(projectMembers)
        .where(eq(projectMembers.projectId, projectId));
      if (!team.some((member) => member.userId === userId)) return 'not_on_team';
      if (team.length <= 1) return 'last_member';
      await tx
        .delete(projectMembers)
        .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)));
      return 'removed';
    });
  }

  /**
   * Takes someone who leaves the workspace off every project team of it (spec §6: a project team holds only people
   * of the workspace). Where they were the only member, `heir` takes their place first, so that no project is left
   * without anybody who may manage it. The projects are locked as in `removeMember`. Call inside a unit of work.
   */
  async leaveWorkspaceTeams(deviceId: string, userId: string, heir: string): Promise<LeftProjectTeam[]> {
    const joined = await this.orm
      .select({ id: projects.id })
      .from(projects)
      .innerJoin(projectMembers, eq(projectMembers.projectId, projects.id))
      .where(and(eq(projects.deviceId, deviceId), eq(projectMembers.userId, userId)));
    if (joined.length === 0) return [];
    const ids = joined.map((row) => row.id);
    const locked = await this.orm
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(inArray(projects.id, ids))
      .orderBy(asc(projects.id))
      .for('update');
    const sizes = await this.orm
      .select({ projectId: projectMembers.projectId, n: count() })
      .from(projectMembers)
      .where(inArray(projectMembers.projectId, ids))
      .groupBy(projectMembers.projectId);
    const alone = new Set(sizes.filter((size) => size.n <= 1).map((size) => size.projectId));
    if (alone.size > 0)
      await this.orm
        .insert(projectMembers)
        .values([...alone].map((projectId) => ({ projectId, userId: heir, addedBy: heir })))
        .onConflictDoNothing();
    await this.orm
      .delete(projectMembers)
      .where(and(inArray(projectMembers.projectId, ids), eq(projectMembers.userId, userId)));
    return locked.map((project) => ({
      projectId: project.id,
      name: project.name,
      handedTo: alone.has(project.id) ? heir : null,
    }));
  }

  /** Patients stored per cohort (a cohort in progress has none yet). */
  async patientCounts(cohortIds: readonly string[]): Promise<Map<string, number>> {
    if (cohortIds.length === 0) return new Map();
    const rows = await this.orm
      .select({ cohortId: cohortPatients.cohortId, n: count() })
      .from(cohortPatients)
      .where(inArray(cohortPatients.cohortId, [...cohortIds]))
      .groupBy(cohortPatients.cohortId);
    return new Map(rows.map((row) => [row.cohortId, row.n]));
  }

  /**
   * Changes the title and/or the question of a project of the workspace. The question must be of the workspace; the
   * title must not be another project's of the workspace in any letter case (the unique index decides a race).
   */
  async update(
    deviceId: string,
    projectId: string,
    change: { name?: string; questionId?: string },
  ): Promise<'updated' | 'title_taken' | 'question_not_found'> {
    try {
      return await this.orm.transaction(async (tx) => {
        if (change.questionId !== undefined) {
          const found = await tx
            .select({ id: questionsOfInterest.id })
            .from(questionsOfInterest)
            .where(and(eq(questionsOfInterest.deviceId, deviceId), eq(questionsOfInterest.id, change.questionId)));
          if (found.length === 0) return 'question_not_found';
        }
        if (change.name !== undefined) {
          const taken = await tx
            .select({ id: projects.id })
            .from(projects)
            .where(
              and(
                eq(projects.deviceId, deviceId),
                sql`lower(${projects.name}) = lower(${change.name})`,
                sql`${projects.id} <> ${projectId}`,
              ),
            );
          if (taken.length > 0) return 'title_taken';
        }
        await tx
          .update(projects)
          .set({ ...change, updatedAt: sql`now()` })
          .where(and(eq(projects.deviceId, deviceId), eq(projects.id, projectId)));
        return 'updated';
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'title_taken';
      throw error;
    }
  }

  /** Adds a ready cohort of the workspace to the project. */
  async addCohort(
    deviceId: string,
    projectId: string,
    cohortId: string,
    addedBy: string,
  ): Promise<'added' | 'not_found' | 'not_ready' | 'already'> {
    const [cohort] = await this.orm
      .select({ status: cohorts.status })
      .from(cohorts)
      .where(and(eq(cohorts.deviceId, deviceId), eq(cohorts.id, cohortId)));
    if (!cohort) return 'not_found';
    if (cohort.status !== 'ready') return 'not_ready';
    const rows = await this.orm
      .insert(projectCohorts)
      .values({ projectId, cohortId, addedBy })
      .onConflictDoNothing()
      .returning({ cohortId: projectCohorts.cohortId });
    return rows.length > 0 ? 'added' : 'already';
  }

  /**
   * Removes a cohort from the project unless rooms of the project show its patients (their names are answered).
   * The link row is locked first, so a room created on the cohort meanwhile is either seen or made after.
   */
  async removeCohort(
    projectId: string,
    cohortId: string,
  ): Promise<{ outcome: 'removed' } | { outcome: 'not_on_project' } | { outcome: 'in_rooms'; rooms: string[] }> {
    return this.orm.transaction(async (tx) => {
      const link = and(eq(projectCohorts.projectId, projectId), eq(projectCohorts.cohortId, cohortId));
      const [linked] = await tx.select({ id: projectCohorts.cohortId }).from(projectCohorts).where(link).for('update');
      if (!linked) return { outcome: 'not_on_project' as const };
      const used = await tx
        .select({ name: rooms.name })
        .from(rooms)
        .where(and(eq(rooms.projectId, projectId), eq(rooms.cohortId, cohortId)))
        .orderBy(asc(rooms.name));
      if (used.length > 0) return { outcome: 'in_rooms' as const, rooms: used.map((room) => room.name) };
      await tx.delete(projectCohorts).where(link);
      return { outcome: 'removed' as const };
    });
  }

  async roomCount(projectId: string): Promise<number> {
    const rows = await this.orm.select({ n: count() }).from(rooms).where(eq(rooms.projectId, projectId));
    return rows[0]?.n ?? 0;
  }
}
