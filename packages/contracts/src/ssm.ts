import { z } from 'zod';
import { text } from './text';

/**
 * Statistical shape models of a project (issue 18; spec §1, §2 "SSM creation has three steps: Patients, Organs,
 * Name", §4, §5, §8). Choices the spec leaves open: docs/decisions/ssm.md.
 */

/** Spec §5: the same configuration twice in one project. */
export const ssmDuplicateMessage = 'This SSM already exists in your project, change some criteria to proceed.';
/** The fewest shapes a model is built from (docs/decisions/ssm.md: below it the leave-one-out measures mean little). */
export const ssmMinShapes = 10;
/** Spec §5, §8: too few patients → a dialog telling the user to reach out (the web shows it on this code). */
export const ssmTooFewCode = 'ssm_too_few_patients';
export function ssmTooFewMessage(shapes: number): string {
  return `A statistical shape model needs at least ${ssmMinShapes} patients; this configuration has ${shapes}. Please reach out to us and we will help you build your model.`;
}
export const ssmNameMaxLength = 60;
/** A shape of a model as URLs and rooms name it: `mean`, or standard deviations per mode in order (`2,0,-1.5`). */
export const ssmInstancePattern = /^(mean|-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*)$/;
/** The furthest a mode moves from the mean, in standard deviations (sliders over ±3 SD). */
export const ssmMaxDeviation = 3;

/** The organs a model can be built of: the cardiac meshes every synthetic patient has (packages/anatomy ORGANS). */
export const ssmOrgans = [
  'aortic_root',
  'lv_blood_pool',
  'lv_myocardium',
  'rv_blood_pool',
  'la_blood_pool',
  'ra_blood_pool',
  'aortic_annulus',
  'mitral_annulus',
  'tricuspid_annulus',
  'pulmonary_annulus',
] as const;
export type SsmOrgan = (typeof ssmOrgans)[number];
export const ssmOrganLabels: Record<SsmOrgan, string> = {
  aortic_root: 'Aortic root',
  lv_blood_pool: 'Left ventricle',
  lv_myocardium: 'LV myocardium',
  rv_blood_pool: 'Right ventricle',
  la_blood_pool: 'Left atrium',
  ra_blood_pool: 'Right atrium',
  aortic_annulus: 'Aortic annulus',
  mitral_annulus: 'Mitral annulus',
  tricuspid_annulus: 'Tricuspid annulus',
  pulmonary_annulus: 'Pulmonary annulus',
};

/** The heart phases a model is built at (the static phases every order prepares). */
export const ssmPhases = ['end-diastole', 'end-systole'] as const;
export type SsmPhase = (typeof ssmPhases)[number];
export const ssmPhaseLabels: Record<SsmPhase, string> = {
  'end-diastole': 'End-diastole',
  'end-systole': 'End-systole',
};

export const ssmStatuses = ['in_progress', 'ready', 'failed'] as const;
export type SsmStatus = (typeof ssmStatuses)[number];

const patientIdSchema = text().min(1).max(40);

/** What a model is built from; two models of one project never share it (spec §5). */
export const ssmConfigurationSchema = z.object({
  /** The project's cohorts: virtual cohorts and ready imaging cohorts (datasets), alone or together. */
  cohortIds: z
    .array(z.uuid({ error: 'A cohort must be named by its id.' }))
    .min(1, 'Choose at least one patient cohort.')
    .max(20, 'A model can be built from at most 20 cohorts.'),
  /**
   * Patients left out (ids such as SYN-000123, or an imaging patient's delivered id), across the chosen cohorts: an
   * id names the patient in every chosen cohort that has it.
   */
  excludedPatients: z.array(patientIdSchema).max(1000).default([]),
  organs: z
    .array(z.enum(ssmOrgans, { error: 'Choose organs of the list.' }))
    .min(1, 'Choose at least one organ.')
    .max(ssmOrgans.length),
  phase: z.enum(ssmPhases, { error: 'Choose end-diastole or end-systole.' }),
});
export type SsmConfiguration = z.infer<typeof ssmConfigurationSchema>;

/** POST …/ssms: the configuration and an optional name (a default names the organ, phase and size). */
export const createSsmSchema = ssmConfigurationSchema.extend({
  name: text().trim().max(ssmNameMaxLength, `An SSM name can have at most ${ssmNameMaxLength} characters.`).optional(),
});
export type CreateSsm = z.infer<typeof createSsmSchema>;

/** The configuration in one canonical order (sorted, without repeats): what duplicates are compared on. */
export function normalizeSsmConfiguration(configuration: SsmConfiguration): SsmConfiguration {
  const sorted = <T extends string>(values: readonly T[]): T[] => [...new Set(values)].sort();
  return {
    cohortIds: sorted(configuration.cohortIds.map((id) => id.toLowerCase())),
    excludedPatients: sorted(configuration.excludedPatients),
    organs: sorted(configuration.organs),
    phase: configuration.phase,
  };
}

/** The default name: organs, phase and number of patients, e.g. "Aortic root, end-diastole, 20 patients". */
export function defaultSsmName(configuration: Pick<SsmConfiguration, 'organs' | 'phase'>, shapes: number): string {
  const organs = configuration.organs.map((organ) => ssmOrganLabels[organ]).join(' + ');
  return `${organs}, ${ssmPhaseLabels[configuration.phase].toLowerCase()}, ${shapes} patients`;
}

export const projectSsmsParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const ssmParamsSchema = projectSsmsParamsSchema.extend({ ssmId: z.uuid() });

/** One mode of variation. */
export const ssmModeSchema = z.object({
  /** λ = s²/(N − 1), mm². */
  variance: z.number(),
  /** λ / Σλ. */
  explained: z.number(),
});

/** Quality curves over the number of modes M = 1 … length (docs/decisions/ssm.md). */
export const ssmQualitySchema = z.object({
  compactness: z.array(z.number()),
  /** Leave-one-out, symmetric mean surface distance, mm. */
  generalisation: z.array(z.number()),
  /** 1,000 samples, mean distance to the nearest training surface, mm. */
  specificity: z.array(z.number()),
  /** Modes kept: the fewest that hold 95 % of the variance. */
  modesKept: z.number().int(),
});

/** A shape of the model, with its leave-one-out error; outliers stand far above the others. */
export const ssmShapeSchema = z.object({
  patientId: patientIdSchema,
  cohortId: z.uuid(),
  /** Leave-one-out error with every mode, mm. */
  residual: z.number(),
  /**
   * Models built by registration (imaging cohorts): the mean distance of the registered reference vertices to this
   * shape's own surface, mm (0 for the reference). Absent where the shapes share one mesh layout.
   */
  registration_mm: z.number().optional(),
  /** Far above the others in leave-one-out error, or in registration residual where there is one. */
  outlier: z.boolean(),
});

/** What any SSM can be rebuilt and cited from. */
export const ssmModelCardSchema = z.object({
  cohorts: z.array(z.object({ id: z.uuid(), name: text() })),
  shapes: z.number().int(),
  organs: z.array(z.enum(ssmOrgans)),
  phase: z.enum(ssmPhases),
  correspondence: text(),
  alignment: text(),
  referenceShape: patientIdSchema,
  seed: z.number().int(),
  meshModelVersion: text(),
  codeVersion: text(),
  vertices: z.number().int(),
  triangles: z.number().int(),
  /**
   * Models built by registration (a configuration naming an imaging cohort): coherent point drift of the reference
   * shape's surfaces onto each shape's, organ by organ, with its parameters (β, λ in units of the shape's RMS radius).
   */
  registration: z
    .object({
      method: text(),
      affineFirst: z.boolean(),
      beta: z.number(),
      lambda: z.number(),
      outlierWeight: z.number(),
      kernelRank: z.number().int(),
      maxIterations: z.number().int(),
      tolerance: z.number(),
      maxTargetPoints: z.number().int(),
      /** How the reference shape was chosen. */
      reference: text(),
    })
    .optional(),
  /** Vertex and triangle ranges of each organ in the model's joint mesh. */
  parts: z.array(
    z.object({
      organ: z.enum(ssmOrgans),
      firstVertex: z.number().int(),
      vertices: z.number().int(),
      firstTriangle: z.number().int(),
      triangles: z.number().int(),
    }),
  ),
});
export type SsmModelCard = z.infer<typeof ssmModelCardSchema>;

export const ssmSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: text(),
  configuration: ssmConfigurationSchema,
  /** Patients the model is (or will be) built from. */
  shapeCount: z.number().int(),
  status: z.enum(ssmStatuses),
  /** 0–1 while in progress. */
  progress: z.number(),
  progressMessage: text().nullable(),
  /**
   * In progress without a build yet: the cohorts it waits for (configured in the project wizard on cohorts still
   * being ordered, issue 18); its build starts when the last of them is ready. Empty otherwise.
   */
  waitingFor: z.array(z.object({ id: z.uuid(), name: text() })).default([]),
  error: text().nullable(),
  createdBy: z.object({ id: z.uuid(), fullName: text() }).nullable(),
  createdAt: z.iso.datetime(),
  readyAt: z.iso.datetime().nullable(),
  /** Once ready. */
  modes: z.array(ssmModeSchema).nullable(),
  quality: ssmQualitySchema.nullable(),
  shapes: z.array(ssmShapeSchema).nullable(),
  modelCard: ssmModelCardSchema.nullable(),
  /** 1 as created; a rebuild with newer build code is the next version of the same configuration. */
  version: z.number().int().default(1),
  /** The version this one rebuilds (kept as it was, with its rooms and results). */
  rebuiltFrom: z.object({ id: z.uuid(), version: z.number().int() }).nullable().default(null),
  /** The rebuild of this version, once asked for. */
  rebuiltAs: z
    .object({ id: z.uuid(), version: z.number().int(), status: z.enum(ssmStatuses) })
    .nullable()
    .default(null),
  /**
   * Once ready: whether its landmarks move with its modes (built with `ssm-2` or later). Without, its shapes cannot
   * be measured and rooms on it place landmarks at the mean's nearest vertex: rebuild it (`POST …/rebuild`).
   */
  landmarksFollowModes: z.boolean().nullable().default(null),
});
export type Ssm = z.infer<typeof ssmSchema>;
export type SsmMode = z.infer<typeof ssmModeSchema>;
export type SsmQuality = z.infer<typeof ssmQualitySchema>;
export type SsmShape = z.infer<typeof ssmShapeSchema>;

/** Why a model cannot be rebuilt: it is current already (the same code would build the same model). */
export const ssmRebuildCurrentMessage =
  'This shape model is built with the current model builder: building it again would give the same model.';

export const ssmListSchema = z.object({ items: z.array(ssmSchema), canEdit: z.boolean() });
export type SsmList = z.infer<typeof ssmListSchema>;
