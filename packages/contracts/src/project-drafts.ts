import { z } from 'zod';
import { cohortCriteriaSchema, cohortDescriptionMaxLength } from './cohorts';
import { developmentStageSchema } from './devices';
import { projectCreationLimits } from './project-creation';
import { ssmConfigurationSchema, ssmNameMaxLength, ssmOrgans, ssmPhases } from './ssm';
import { text } from './text';

/**
 * The project creation state of spec §3, kept on the server as one draft per user and workspace so a reload
 * continues (issue 5 item 1). Every field has a default, so an older or partial draft still reads. The meaning
 * of each field is recorded in docs/decisions/project-creation-draft.md.
 */

/** Spec §2: the five steps of the wizard, in order (step numbers start at 1, spec §3). */
export const projectCreationSteps = [
  'Project title',
  'Virtual patient cohort',
  'Question of interest',
  'Device version',
  'Team',
] as const;
export const projectCreationStepCount = projectCreationSteps.length;

const idList = (max: number) => z.array(z.uuid()).max(max).default([]);

/** A cohort order being typed inside the wizard (the inline ordering flow), so a reload keeps it. */
export const cohortOrderDraftSchema = z.object({
  step: z.enum(['criteria', 'order']).default('criteria'),
  criteria: cohortCriteriaSchema.nullable().default(null),
  name: text().max(200).default(''),
  description: text().max(cohortDescriptionMaxLength).default(''),
  size: z.number().int().min(1).max(1000).nullable().default(null),
});
export type CohortOrderDraft = z.infer<typeof cohortOrderDraftSchema>;

/** The name and description of a new device version being typed (the files are uploads of their own). */
export const deviceVersionDraftSchema = z.object({
  name: text().max(200).default(''),
  description: text().max(2000).default(''),
});
export type DeviceVersionDraft = z.infer<typeof deviceVersionDraftSchema>;

/** The SSM being configured on the wizard's new-ssm-* steps (Patients, Organs, Name), so a reload keeps it. */
export const ssmOrderDraftSchema = z.object({
  cohortIds: z.array(z.uuid()).max(20).default([]),
  /** Patients left out, by id. */
  excludedPatients: z.array(text().max(40)).max(1000).default([]),
  organs: z.array(z.enum(ssmOrgans)).max(ssmOrgans.length).default(['aortic_root']),
  phase: z.enum(ssmPhases).default('end-diastole'),
  name: text().max(ssmNameMaxLength).default(''),
});
export type SsmOrderDraft = z.infer<typeof ssmOrderDraftSchema>;

/**
 * An SSM added to the draft (issue 18): checked by the server when it was added (POST …/project-draft/ssms, the
 * rules of an SSM made on a project's page), its name given or defaulted then; built when the project is created.
 */
export const draftSsmSchema = ssmConfigurationSchema.extend({
  name: text().min(1).max(ssmNameMaxLength),
  /** The patients it is built from, as counted when it was added. */
  shapeCount: z.number().int().nonnegative(),
});
export type DraftSsm = z.infer<typeof draftSsmSchema>;

export const projectDraftStateSchema = z.object({
  step: z.number().int().min(1).max(projectCreationStepCount).default(1),
  /** Kept as typed (the 50-character rule is checked when the step is left and when the project is created). */
  title: text().max(200).default(''),
  developmentStage: developmentStageSchema.nullable().default(null),
  options: z
    .object({
      isCreatingFromScratch: z.boolean().default(true),
      /** The user chose their own imaging data on select-upload-new-cohort-data-type (issue 19). */
      useUploadedImagingData: z.boolean().default(false),
    })
    .default({ isCreatingFromScratch: true, useUploadedImagingData: false }),
  /** The previous project the draft was copied from (options.isCreatingFromScratch false). */
  basedOnProjectId: z.uuid().nullable().default(null),
  /** The cohort whose criteria the inline order started from ("order a similar cohort"). */
  basedOnPatientCohort: z.uuid().nullable().default(null),
  /** Cohorts of the workspace chosen for the project. */
  existingCohortSelected: idList(projectCreationLimits.cohorts),
  /** Cohorts ordered inside the wizard (they may still be in progress). */
  newPatientCohortOrders: idList(projectCreationLimits.cohorts),
  /** The order being typed on new-patient-cohort. */
  firstPatientCohort: cohortOrderDraftSchema.nullable().default(null),
  questionId: z.uuid().nullable().default(null),
  /** Device versions of the workspace chosen for the project. */
  existingDeviceVersionsSelected: idList(projectCreationLimits.versions),
  /** Device versions created inside the wizard (they may still be processing). */
  newDeviceVersions: idList(projectCreationLimits.versions),
  /** The new device version being typed on new-device-version. */
  firstDeviceVersion: deviceVersionDraftSchema.nullable().default(null),
  /** The team besides the creator, who is always on it. */
  teamUserIds: idList(projectCreationLimits.teamUsers),
  /**
   * Imaging datasets uploaded inside the wizard (spec §3 `uploadedImagingData`: a note and the data): they become
   * imaging cohorts of the project when it is created (issue 19).
   */
  uploadedImagingData: z
    .object({ note: text().max(2000).default(''), data: idList(projectCreationLimits.cohorts) })
    .default({ note: '', data: [] }),
  /** The SSM being configured on the new-ssm-* steps. */
  newSsm: ssmOrderDraftSchema.nullable().default(null),
  /** SSMs added in the wizard: queued as build jobs when the project is created (issue 18). */
  ssms: z.array(draftSsmSchema).max(projectCreationLimits.ssms).default([]),
});
export type ProjectDraftState = z.infer<typeof projectDraftStateSchema>;
export type ProjectDraftStateInput = z.input<typeof projectDraftStateSchema>;

/** `GET /api/devices/:deviceId/project-draft`: null when the user has no draft in this workspace. */
export const projectDraftSchema = z.object({
  state: projectDraftStateSchema.nullable(),
  updatedAt: text().nullable(),
});
export type ProjectDraft = z.infer<typeof projectDraftSchema>;

/** A fresh draft (the defaults of every field). */
export function emptyProjectDraft(): ProjectDraftState {
  return projectDraftStateSchema.parse({});
}
