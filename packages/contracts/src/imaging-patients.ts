import { z } from 'zod';
import { patientParameterSchema } from './cohorts';
import { imagingDatasetStatuses } from './imaging';
import { text } from './text';

/**
 * The patients of an imaging cohort (issue 19 item 7): a project's imaging dataset whose patient models support
 * staff delivered. They are the user's own data — never synthetic — and are used like the built-in patients: a
 * patient page (the delivered surfaces in 3D, what is measured on them), rooms, and simulations where the anatomy
 * has what a kind needs. See docs/decisions/imaging-patients.md.
 */

/** A patient's folder name in the delivered models (the de-identification pseudonym, `P` + 12 hex digits). */
export const imagingPatientIdPattern = /^[A-Za-z0-9-]{1,64}$/;
/** A delivered phase (`end-diastole`, `systole`, …): the `<phase>` of `<organ>_<phase>.stl`, lower case. */
export const imagingPhasePattern = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const imagingPatientNotFoundMessage = 'This imaging cohort has no such patient.';
export const imagingCohortNotReadyMessage =
  'The patient models of this imaging cohort are still being made. You get a notification when they are ready.';

export const imagingCohortParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid(), datasetId: z.uuid() });
export const imagingPatientParamsSchema = imagingCohortParamsSchema.extend({
  patientId: text().regex(imagingPatientIdPattern, 'Not a patient of an imaging cohort.'),
});
export const imagingPatientMeshParamsSchema = imagingPatientParamsSchema.extend({
  phase: text().regex(imagingPhasePattern, 'Not a phase.'),
});

/** One patient of an imaging cohort: what was delivered and what is measured on it. */
export const imagingPatientSchema = z.object({
  id: text(),
  /** Always `imaging`: the user's own (de-identified) data, never a synthetic patient. */
  source: z.literal('imaging'),
  datasetId: text(),
  datasetName: text(),
  projectId: text(),
  meshes: z.object({
    /** Phases with delivered surfaces, as named in the delivery. */
    phases: z.array(text()),
    /** Organs with a delivered surface (any phase), `aortic-root` read as `aortic_root`. */
    organs: z.array(text()),
  }),
  /** The delivered surfaces: organ, phase, triangles and enclosed volume (mm³). */
  models: z.array(z.object({ organ: text(), phase: text(), triangles: z.number().int(), volume_mm3: z.number() })),
  landmarks: z.array(z.object({ name: text(), position: z.tuple([z.number(), z.number(), z.number()]) })),
  /** Measured on the delivered surfaces (volumes; LV volumes and ejection fraction where both phases are there). */
  parameters: z.array(patientParameterSchema),
});
export type ImagingPatient = z.infer<typeof imagingPatientSchema>;

/** A project's imaging cohort with its patients (none before the models are delivered). */
export const imagingCohortSchema = z.object({
  datasetId: text(),
  name: text(),
  status: z.enum(imagingDatasetStatuses),
  patients: z.array(imagingPatientSchema),
});
export type ImagingCohort = z.infer<typeof imagingCohortSchema>;
export const imagingCohortListSchema = z.object({ items: z.array(imagingCohortSchema) });
export type ImagingCohortList = z.infer<typeof imagingCohortListSchema>;
