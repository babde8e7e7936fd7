import { z } from 'zod';
import { developmentStageSchema } from './devices';
import { createSsmSchema } from './ssm';
import { text } from './text';

/** Creating a project (spec §2 "Project creation", §5 "Project title", §6, issue 5 item 1). */

export const projectTitleMaxLength = 50;
/** Spec §5, word for word. */
export const projectTitleTooLongMessage = 'Project title is too long. Maximum 50 characters.';
export const projectTitleRequiredMessage = 'Enter a project title.';
export const projectTitleTakenMessage =
  'A project with this title already exists in this device workspace. Please choose a different title.';
/** Spec §8 "Team search without match"; also the refusal of a team user who is not in the workspace. */
export const teamNoMatchMessage = 'No match. Contact admin to invite new users to device workspace.';
export const projectStageNotInWorkspaceMessage = 'Choose one of the development stages of this device workspace.';
/** Ids of another workspace answer as if they did not exist (404), at creation and when a project is edited. */
export const cohortNotInWorkspaceMessage = 'No such patient cohort in this device workspace.';
export const questionNotInWorkspaceMessage = 'No such question of interest in this device workspace.';

/** What is wrong with a title (trimmed first), or null; the web shows it live, the server answers 422 with it. */
export function projectTitleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (trimmed.length === 0) return projectTitleRequiredMessage;
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  if ([...trimmed].length > projectTitleMaxLength) return projectTitleTooLongMessage;
  return null;
}

/** Bounds on what one request may carry (the database's checks are the last line). */
export const projectCreationLimits = { cohorts: 50, versions: 50, teamUsers: 200, ssms: 10 } as const;

const ids = (max: number, what: string) =>
  z
    .array(z.uuid())
    .max(max, `A project can have at most ${max} ${what}.`)
    .default([])
    // The same id twice is the same choice.
    .transform((list) => [...new Set(list)]);

/**
 * `POST /api/devices/:deviceId/projects`. The title is only bounded here so that an over-long title gets the
 * spec's message (422) from the server rather than a schema error.
 */
export const createProjectSchema = z.object({
  name: text().max(1000),
  developmentStage: developmentStageSchema,
  questionId: z.uuid().nullable().default(null),
  cohortIds: ids(projectCreationLimits.cohorts, 'patient cohorts'),
  versionIds: ids(projectCreationLimits.versions, 'device versions'),
  teamUserIds: ids(projectCreationLimits.teamUsers, 'team members'),
  basedOnProjectId: z.uuid().nullable().default(null),
  /** Imaging datasets of the workspace uploaded by the creator for this project (issue 19): they join it. */
  imagingDatasetIds: ids(projectCreationLimits.cohorts, 'imaging datasets'),
  /**
   * Statistical shape models configured in the wizard (issue 18): checked as on a project's page and queued as
   * build jobs in the project's own transaction.
   */
  ssms: z
    .array(createSsmSchema)
    .max(projectCreationLimits.ssms, `A project can be created with at most ${projectCreationLimits.ssms} SSMs.`)
    .default([]),
});
export type CreateProject = z.input<typeof createProjectSchema>;
export type CreateProjectBody = z.infer<typeof createProjectSchema>;

export const createdProjectSchema = z.object({ id: text() });
export type CreatedProject = z.infer<typeof createdProjectSchema>;

/** `GET /api/devices/:deviceId/project-title-check?name=`: the title step asks before it moves on. */
export const projectTitleCheckQuerySchema = z.object({ name: text().max(1000) });
export const projectTitleCheckSchema = z.object({
  /** The spec message for a bad title, the taken message, or null when the title can be used. */
  problem: text().nullable(),
});
export type ProjectTitleCheck = z.infer<typeof projectTitleCheckSchema>;
