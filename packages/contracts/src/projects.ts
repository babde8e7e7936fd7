import { z } from 'zod';
import { cohortStatusSchema } from './cohorts';
import { deviceVersionStatusSchema } from './device-versions';
import { developmentStageSchema, memberRoleSchema } from './devices';
import { vv40GradeSchema } from './questions';
import { text } from './text';
import { reasonSchema } from './audit';

/** Project status (spec §3 projectStatus, §4 "Project status"). */
export const projectStatuses = ['active', 'completed', 'abandoned'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];
export const projectStatusSchema = z.enum(projectStatuses);

/**
 * The allowed moves between statuses (issue 5; docs/decisions/project-status.md) and the card action that makes
 * each one. Server and web share it: the server refuses any other move, the card menu offers only these.
 */
export const projectStatusMoves = [
  { from: 'active', to: 'completed', action: 'Complete project' },
  { from: 'active', to: 'abandoned', action: 'Abandon project' },
  { from: 'completed', to: 'active', action: 'Reactivate project' },
  { from: 'abandoned', to: 'active', action: 'Reactivate project' },
] as const satisfies readonly { from: ProjectStatus; to: ProjectStatus; action: string }[];
export type ProjectStatusMove = (typeof projectStatusMoves)[number];

/** The moves a project in `status` may make (what its card menu offers). */
export function movesFrom(status: ProjectStatus): ProjectStatusMove[] {
  return projectStatusMoves.filter((move) => move.from === status);
}

export function isAllowedMove(from: ProjectStatus, to: ProjectStatus): boolean {
  return projectStatusMoves.some((move) => move.from === from && move.to === to);
}

/** Why a move is refused, naming it (409 of `POST .../status`). */
export function refusedMoveMessage(from: ProjectStatus, to: ProjectStatus): string {
  if (from === to) return `The project is already ${from}.`;
  return `A project cannot move from ${from} to ${to}. Allowed moves: active to completed, active to abandoned, completed to active, abandoned to active.`;
}

/** Spec §4: removing the last user is refused, suggesting to abandon the project instead. */
export const lastTeamMemberMessage =
  'The last user of a project cannot be removed. Abandon the project instead if nobody works on it any more.';

/** Up to two initials of a full name, for avatars ("Ada Lovelace" → "AL"). */
export function initialsOf(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

/** A person on a project team, as avatars show them. */
export const projectPersonSchema = z.object({
  id: text(),
  name: text(),
  initials: text(),
  /** The picture thumbnail (as the team API gives it); null: show the initials. */
  pictureUrl: text().nullable(),
  /** Their role in the workspace; null when they no longer belong to it. */
  role: memberRoleSchema.nullable(),
});
export type ProjectPerson = z.infer<typeof projectPersonSchema>;

export const projectQuestionSchema = z.object({
  id: text(),
  question: text(),
  contextOfUse: text().nullable(),
  modelInfluence: vv40GradeSchema.nullable(),
  decisionConsequence: vv40GradeSchema.nullable(),
  /** The V&V 40 model risk level (1–5, `modelRiskOf`) when both grades are given. */
  riskLevel: z.number().int().min(1).max(5).nullable(),
});
export type ProjectQuestion = z.infer<typeof projectQuestionSchema>;

export const projectCohortSchema = z.object({
  id: text(),
  name: text(),
  size: z.number().int(),
  status: cohortStatusSchema,
});
export type ProjectCohort = z.infer<typeof projectCohortSchema>;

export const projectDeviceVersionSchema = z.object({
  id: text(),
  name: text(),
  status: deviceVersionStatusSchema,
});
export type ProjectDeviceVersion = z.infer<typeof projectDeviceVersionSchema>;

/** One project as the overview card and the project view show it, with the caller's rights on it. */
export const projectSchema = z.object({
  id: text(),
  name: text(),
  developmentStage: developmentStageSchema,
  status: projectStatusSchema,
  question: projectQuestionSchema.nullable(),
  cohorts: z.array(projectCohortSchema),
  deviceVersions: z.array(projectDeviceVersionSchema),
  team: z.array(projectPersonSchema),
  createdAt: text(),
  statusChangedAt: text().nullable(),
  /** Status, team, cohorts, versions (project.manage). */
  canManage: z.boolean(),
  /** Write comments (project.comment). */
  canComment: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

export const projectSearchMaxLength = 100;

/** Most projects one list answer carries when a page is asked for. */
export const projectPageMaxLimit = 200;

/**
 * `GET .../projects`. Without `limit` every matching project is listed (the wizard's previous projects); the
 * overview asks per stage group for a page (`stage`, `limit`, `offset`), and `limit=0` answers only the counts.
 */
export const projectListQuerySchema = z.object({
  status: projectStatusSchema.optional(),
  search: text().trim().max(projectSearchMaxLength).default(''),
  stage: developmentStageSchema.optional(),
  limit: z.coerce.number().int().min(0).max(projectPageMaxLimit).optional(),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ProjectListQuery = z.infer<typeof projectListQuerySchema>;

/** Cards per stage group on the overview's first screen (and per "Show more" page). */
export const projectOverviewPageSize = 24;

/**
 * `GET .../projects/overview?status=&search=&limit=`: the overview's first screen in one answer — each stage
 * group's count and first `limit` projects (no status means every status). Later pages come from `GET .../projects`
 * with `stage`, `limit` and `offset`.
 */
export const projectOverviewQuerySchema = z.object({
  status: projectStatusSchema.optional(),
  search: text().trim().max(projectSearchMaxLength).default(''),
  limit: z.coerce.number().int().min(1).max(projectPageMaxLimit).default(projectOverviewPageSize),
});
export type ProjectOverviewQuery = z.infer<typeof projectOverviewQuerySchema>;

export const projectOverviewSchema = z.object({
  /** Every development stage, in order, with its matching projects' count and the first `limit` of them. */
  groups: z.array(
    z.object({
      stage: developmentStageSchema,
      total: z.number().int().nonnegative(),
      items: z.array(projectSchema),
    }),
  ),
  /** How many projects match status and search in all stages. */
  total: z.number().int().nonnegative(),
  /** Whether the caller may create projects (admins and members). */
  canCreate: z.boolean(),
});
export type ProjectOverview = z.infer<typeof projectOverviewSchema>;

export const projectListSchema = z.object({
  items: z.array(projectSchema),
  /** How many projects match status, search and stage (all pages). */
  total: z.number().int().nonnegative(),
  /** How many projects match status and search, per development stage (the overview's group headings). */
  stageCounts: z.record(developmentStageSchema, z.number().int().nonnegative()),
  /** Whether the caller may create projects (admins and members). */
  canCreate: z.boolean(),
});
export type ProjectList = z.infer<typeof projectListSchema>;

export const projectParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const projectMemberParamsSchema = projectParamsSchema.extend({ userId: z.uuid() });

/** `POST .../projects/:projectId/status`. */
/** A status move changes what the project's evidence means: the server asks for the reason (issue 20). */
export const changeProjectStatusSchema = z.object({ status: projectStatusSchema, reason: reasonSchema });
export type ChangeProjectStatus = z.infer<typeof changeProjectStatusSchema>;

/** `GET .../projects/:projectId/team` and the answer of adding or removing someone. */
export const projectTeamSchema = z.object({
  items: z.array(projectPersonSchema),
  canManage: z.boolean(),
});
export type ProjectTeam = z.infer<typeof projectTeamSchema>;

/** `POST .../projects/:projectId/team`. */
export const addProjectMemberSchema = z.object({ userId: z.uuid() });
export type AddProjectMember = z.infer<typeof addProjectMemberSchema>;

/** `GET .../projects/:projectId/stats`: what the Stats tab shows. */
export const projectStatsSchema = z.object({
  cohorts: z.array(projectCohortSchema.extend({ patients: z.number().int() })),
  patients: z.number().int(),
  deviceVersions: z.object({
    items: z.array(projectDeviceVersionSchema),
    byStatus: z.partialRecord(deviceVersionStatusSchema, z.number().int()),
  }),
  rooms: z.object({ total: z.number().int() }),
  /** No simulations exist yet (issue 7 brings them): an empty breakdown, total 0. */
  simulations: z.object({ total: z.number().int(), byStatus: z.record(text(), z.number().int()) }),
  team: z.array(projectPersonSchema),
});
export type ProjectStats = z.infer<typeof projectStatsSchema>;
