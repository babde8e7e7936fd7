import { z } from 'zod';
import { text } from './text';

/**
 * Patient cohorts (spec §3 "Patient cohort", "Cohort criteria", §5 "Cohort name", §9). The schemas check the
 * shape of what is sent; which options exist, which are disabled and the slider grids are the domain of
 * @insilico/anatomy (validateCriteria), which the server applies after these.
 */

/** The status of one criteria option. */
export const optionStatusSchema = z.enum(['default', 'selected', 'excluded', 'new']);
export type CriteriaOptionStatus = z.infer<typeof optionStatusSchema>;

const statusMap = (maxKeys: number) =>
  z
    .record(text().min(1).max(100), optionStatusSchema)
    .refine((map) => Object.keys(map).length <= maxKeys, `At most ${maxKeys} options.`);

const rangeSchema = z.object({ min: z.number(), max: z.number() });

/** Criteria of a cohort: every option with its status (absent = default), body dimensions as min/max ranges. */
export const cohortCriteriaSchema = z.object({
  body_part: text().min(1).max(40).default('heart_and_thorax'),
  /** Built-in pathologies (selected/excluded) and user-requested ones (new). */
  pathology: statusMap(30),
  sex: statusMap(10),
  body_dimensions: z.object({ height: rangeSchema, weight: rangeSchema, bmi: rangeSchema, bsa: rangeSchema }),
  origin: z.object({
    by: z.enum(['location', 'ethnicity']),
    location: statusMap(10),
    ethnicity: statusMap(10),
  }),
  age_group: statusMap(10),
  phases_of_heart_cycle: statusMap(10),
});
export type CohortCriteriaInput = z.input<typeof cohortCriteriaSchema>;
export type CohortCriteriaBody = z.infer<typeof cohortCriteriaSchema>;

/** Cohort sizes offered (spec §3, §9). */
export const cohortSizes = [5, 10, 20, 50, 100] as const;
export type CohortSizeValue = (typeof cohortSizes)[number];
export const cohortSizeSchema = z.literal(cohortSizes, { error: 'Choose 5, 10, 20, 50 or 100 patients.' });

/** The duplicate-name message of spec §5. */
export const cohortNameTakenMessage = 'A patient cohort with this name already exists. Please give it a different name';
/** The warning shown beside the name field (spec §5). */
export const cohortNameWarning = 'Be descriptive: the name of a patient cohort cannot be changed later.';
export const cohortNameMaxLength = 100;
export const cohortDescriptionMaxLength = 2000;

export const cohortNameSchema = text()
  .trim()
  .min(1, 'Give the patient cohort a name.')
  .max(cohortNameMaxLength, `The name can have at most ${cohortNameMaxLength} characters.`);

export const cohortStatusSchema = z.enum(['in_progress', 'ready', 'failed']);
export type CohortStatus = z.infer<typeof cohortStatusSchema>;

/** `POST /api/devices/:deviceId/cohorts/count`: the live count of the order page. */
export const cohortCountRequestSchema = z.object({ criteria: cohortCriteriaSchema });
export const cohortCountSchema = z.object({
  /** Patients of the database matching the criteria. */
  matching: z.number().int(),
  /** Patients in the whole (synthetic) database. */
  population: z.number().int(),
});
export type CohortCount = z.infer<typeof cohortCountSchema>;

/** `POST /api/devices/:deviceId/cohorts`: order a cohort. */
export const createCohortSchema = z.object({
  name: cohortNameSchema,
  description: text()
    .trim()
    .max(cohortDescriptionMaxLength, `The description can have at most ${cohortDescriptionMaxLength} characters.`)
    .default(''),
  size: cohortSizeSchema,
  criteria: cohortCriteriaSchema,
});
export type CreateCohort = z.input<typeof createCohortSchema>;

/** A cohort as listed (spec: name, size, criteria summary, status, created by, date). */
export const cohortSummarySchema = z.object({
  id: text(),
  deviceId: text(),
  name: text(),
  description: text(),
  size: z.number().int(),
  criteria: cohortCriteriaSchema,
  criteriaSummary: text(),
  status: cohortStatusSchema,
  /** Progress of the order while in progress, 0..1. */
  progress: z.number().min(0).max(1),
  /** Always true for now: built-in patients are synthetic. */
  synthetic: z.boolean(),
  createdBy: z.object({ id: text(), fullName: text() }).nullable(),
  createdAt: text(),
  readyAt: text().nullable(),
});
export type CohortSummary = z.infer<typeof cohortSummarySchema>;

export const cohortListSchema = z.object({ items: z.array(cohortSummarySchema) });
export type CohortList = z.infer<typeof cohortListSchema>;

/** One cohort with what its page needs beyond the list. */
export const cohortSchema = cohortSummarySchema.extend({
  /** Patients that matched the criteria when the order was placed. */
  matchingAtOrder: z.number().int(),
  modelVersion: text(),
  /** Why the order failed (status failed). */
  error: text().nullable(),
  progressMessage: text().nullable(),
});
export type Cohort = z.infer<typeof cohortSchema>;

export const cohortParamsSchema = z.object({ deviceId: z.uuid(), cohortId: z.uuid() });
export const patientIdPattern = /^SYN-\d{6}$/;
export const cohortPatientParamsSchema = cohortParamsSchema.extend({
  patientId: text().regex(patientIdPattern, 'Not a patient id.'),
});
/** A phase of a patient's meshes: `end-diastole`, `end-systole` or a cine frame `cine-03of12`. */
export const meshPhasePattern = /^(end-diastole|end-systole|cine-\d{2}of\d{2})$/;
export const cohortMeshParamsSchema = cohortPatientParamsSchema.extend({
  phase: text().regex(meshPhasePattern, 'Not a phase.'),
});

/** Sortable columns of a cohort's patient table. */
export const patientSortKeys = ['id', 'sex', 'age', 'origin', 'height', 'weight', 'bmi', 'bsa', 'pathologies'] as const;
export type PatientSortKey = (typeof patientSortKeys)[number];
export const patientPageSizes = [10, 25, 50, 100] as const;

/** `GET .../cohorts/:cohortId/patients?search=&sort=&order=&page=&pageSize=` (page is 1-based). */
export const cohortPatientsQuerySchema = z.object({
  search: text().trim().max(100).default(''),
  sort: z.enum(patientSortKeys).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((size) => (patientPageSizes as readonly number[]).includes(size), 'Choose 10, 25, 50 or 100 rows.')
    .default(25),
});
export type CohortPatientsQuery = z.infer<typeof cohortPatientsQuerySchema>;
export type CohortPatientsQueryInput = z.input<typeof cohortPatientsQuerySchema>;

/** A patient as a row of the cohort's table. */
export const cohortPatientRowSchema = z.object({
  id: text(),
  synthetic: z.boolean(),
  sex: text(),
  age: z.number().int(),
  originLocation: text(),
  originEthnicity: text(),
  height_cm: z.number(),
  weight_kg: z.number(),
  bmi_kg_m2: z.number(),
  bsa_m2: z.number(),
  pathologies: z.array(text()),
  phases: z.array(text()),
});
export type CohortPatientRow = z.infer<typeof cohortPatientRowSchema>;

export const cohortPatientPageSchema = z.object({
  items: z.array(cohortPatientRowSchema),
  /** Rows matching the search (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CohortPatientPage = z.infer<typeof cohortPatientPageSchema>;

/** One numeric parameter of a patient, with its unit and display precision. */
export const patientParameterSchema = z.object({
  key: text(),
  group: z.enum(['body', 'cardiac']),
  label: text(),
  unit: text(),
  decimals: z.number().int(),
  value: z.number(),
});
export type PatientParameter = z.infer<typeof patientParameterSchema>;

/** One patient of a cohort: demographics, every parameter with units, and the mesh phases to view. */
export const cohortPatientSchema = cohortPatientRowSchema.extend({
  cohortId: text(),
  ageGroups: z.array(text()),
  lvHypertrophy: z.boolean(),
  parameters: z.array(patientParameterSchema),
  meshes: z.object({
    /** Phases with meshes: `end-diastole`, `end-systole`, and for cine patients every cine frame label. */
    phases: z.array(text()),
    organs: z.array(text()),
    modelVersion: text(),
  }),
});
export type CohortPatient = z.infer<typeof cohortPatientSchema>;

/** `POST /api/devices/:deviceId/pathology-requests`: a pathology the database lacks (support sees it). */
export const pathologyRequestSchema = z.object({ name: text().trim().min(1).max(100) });
export const pathologyRequestAnswerSchema = z.object({
  name: text(),
  /** False when the same user had already asked for it in this workspace. */
  created: z.boolean(),
});
export type PathologyRequestAnswer = z.infer<typeof pathologyRequestAnswerSchema>;

const vec3Schema = z.tuple([z.number(), z.number(), z.number()]).readonly();

/** `GET .../patients/:patientId/meshes/:phase/landmarks`: named landmarks of one phase (mm, patient frame). */
export const patientLandmarksSchema = z.object({
  patientId: text(),
  phase: text(),
  unit: z.literal('mm'),
  frame: text(),
  landmarks: z.array(
    z.object({ name: text(), position: vec3Schema, normal: vec3Schema.optional(), axis: vec3Schema.optional() }),
  ),
});
export type PatientLandmarks = z.infer<typeof patientLandmarksSchema>;
