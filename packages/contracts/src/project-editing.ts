import { z } from 'zod';
import { projectParamsSchema } from './projects';
import { text } from './text';

/**
 * Editing a project after creation (issue 14 item 16; docs/decisions/project-editing.md): its title and question of
 * interest (the wizard's rules: `projectTitleProblem` of project-creation.ts, a question of the workspace), and its
 * patient cohorts and device versions, added (ready ones of the workspace) or removed (unless a room uses them).
 */

/**
 * `PATCH /api/devices/:deviceId/projects/:projectId`: what changes. The title is bounded only loosely, as for
 * creation, so that an over-long title gets the spec §5 message from the server rather than a schema error.
 */
export const updateProjectSchema = z
  .object({
    name: text().max(1000).optional(),
    questionId: z.uuid().optional(),
  })
  .refine((body) => body.name !== undefined || body.questionId !== undefined, {
    message: 'Change the title or the question of interest.',
  });
export type UpdateProject = z.infer<typeof updateProjectSchema>;

/** `POST .../projects/:projectId/cohorts`: add a ready patient cohort of the workspace. */
export const addProjectCohortSchema = z.object({ cohortId: z.uuid() });
export type AddProjectCohort = z.infer<typeof addProjectCohortSchema>;
export const projectCohortParamsSchema = projectParamsSchema.extend({ cohortId: z.uuid() });

export const cohortNotReadyForProjectMessage =
  'Only a ready patient cohort can be added to a project. Please wait until it is ready.';
export const cohortAlreadyOnProjectMessage = 'This patient cohort is already part of the project.';
export const cohortNotOnProjectMessage = 'This patient cohort is not part of the project.';

/** At most this many room names in a refusal; the rest are counted. */
const namedRooms = 3;

function roomList(names: readonly string[]): string {
  const shown = names.slice(0, namedRooms).join(', ');
  return names.length > namedRooms ? `${shown} and ${names.length - namedRooms} more` : shown;
}

/** Removing a cohort from a project is refused while rooms of the project show its patients (409). */
export function cohortInProjectRoomsMessage(roomNames: readonly string[]): string {
  const those = roomNames.length === 1 ? 'that room' : 'those rooms';
  return `Rooms of this project show patients of this cohort: ${roomList(roomNames)}. Delete ${those} before removing the cohort from the project.`;
}

/** Removing a device version from a project is refused while rooms of the project place it (409). */
export function versionInProjectRoomsMessage(roomNames: readonly string[]): string {
  const those = roomNames.length === 1 ? 'that room' : 'those rooms';
  return `This device version is placed in rooms of this project: ${roomList(roomNames)}. Remove it from ${those} before removing it from the project.`;
}
