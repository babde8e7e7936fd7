import { z } from 'zod';
import { text } from './text';
import { reasonSchema } from './audit';
import { droppedAnalysisParameterSchema } from './analysis-dropped-parameters';
import { analysisReportRequestSchema } from './analysis-report';
import { endpoint } from './endpoint';
import { representativenessRequestSchema, representativenessSchema } from './representativeness';

/**
 * Population analyses of a project (issue 6, spec §2 "Population analysis", §3, §5, §9). The server stores the
 * inputs (cohort, parameters, settings, excluded patients); the page computes the numbers in a Web Worker
 * (docs/decisions/stats-where-analysis-runs.md). Choices the spec leaves open: docs/decisions/analysis-api.md.
 */

/** Spec §5/§9: the minimum for a statistical analysis (the engine refuses below it). */
export const analysisMinPatients = 20;
/** Spec §5: shown instead of numbers when a cohort has fewer patients. */
export const analysisMinPatientsMessage = 'Statistical analysis needs at least 20 patients.';
/** Spec §8: the analysis error dialog (with Cancel and Reload). */
export const analysisErrorMessage = 'An error occurred handling your request. Please reload the page...';
/** A write based on an older revision than the stored one. */
export const analysisConflictMessage =
  'This analysis was changed in another tab or by someone else since you opened it. Reload it to see the latest version, then make your change again.';

/** Spec §9 defaults. */
export const analysisDefaults = {
  percentiles: [5, 50, 95],
  correlationThreshold: 0.9,
  alpha: 0.001,
  targetCoveragePercent: 50,
  seedPercentile: 50,
  bandwidth: 'scott',
} as const;

export const analysisNameMaxLength = 100;
/** Bounds that keep one analysis a small document. */
export const analysisLimits = {
  percentiles: 9,
  parameters: 64,
  deviceFits: 10,
  sizesPerFit: 20,
  rangesPerSize: 8,
  excluded: 1000,
} as const;

// zod 4 numbers are finite: NaN and ±Infinity are refused with this message.
const finite = (what: string) => z.number({ error: `${what} must be a number.` });
/**
 * A percentile (spec §5): any number is accepted; `normalizeAnalysisSettings` moves it to the closest valid one
 * (0–100) and the stored and answered value is the moved one.
 */
const percentileSchema = finite('A percentile');

const parameterKeySchema = text().min(1).max(80);

/** One range of a device size on one parameter (bounds inclusive, in the parameter's unit). */
export const sizeRangeSchema = z
  .object({ parameter: parameterKeySchema, min: finite('A minimum'), max: finite('A maximum') })
  .refine((range) => range.min <= range.max, { message: 'The minimum of a range must not exceed its maximum.' });

/** One size of a device version: a patient fits when every range contains their value. */
export const deviceSizeSchema = z.object({
  name: text().trim().min(1, 'Give the size a name.').max(60, 'A size name can have at most 60 characters.'),
  ranges: z.array(sizeRangeSchema).min(1, 'A size needs at least one range.').max(analysisLimits.rangesPerSize),
});

/** The sizing windows of one device version (or of a version not uploaded yet: `versionId` null). */
export const deviceFitSchema = z.object({
  versionId: z.uuid().nullable().default(null),
  label: text().trim().min(1, 'Name the device version or sizing.').max(100),
  sizes: z.array(deviceSizeSchema).max(analysisLimits.sizesPerFit),
});

/** The settings of an analysis, every field defaulting to spec §9. */
export const analysisSettingsSchema = z.object({
  percentiles: z
    .array(percentileSchema)
    .min(1, 'Ask for at least one percentile.')
    .max(analysisLimits.percentiles, `At most ${analysisLimits.percentiles} percentiles.`)
    .default([...analysisDefaults.percentiles]),
  correlationThreshold: finite('The correlation threshold')
    .min(0, 'The correlation threshold lies between 0 and 1.')
    .max(1, 'The correlation threshold lies between 0 and 1.')
    .default(analysisDefaults.correlationThreshold),
  alpha: finite('Alpha')
    .gt(0, 'Alpha lies strictly between 0 and 1.')
    .lt(1, 'Alpha lies strictly between 0 and 1.')
    .default(analysisDefaults.alpha),
  targetCoveragePercent: finite('The target coverage')
    .gt(0, 'The target coverage lies above 0 and at most 100 %.')
    .max(100, 'The target coverage lies above 0 and at most 100 %.')
    .default(analysisDefaults.targetCoveragePercent),
  seedPercentile: percentileSchema.default(analysisDefaults.seedPercentile),
  bandwidth: z.enum(['scott', 'silverman']).default(analysisDefaults.bandwidth),
  /** The parameter of the sizing proposal (one of the analysis' parameters), null: none. */
  sizingParameter: parameterKeySchema.nullable().default(null),
  /** Width of each window of the size-set proposal, in the sizing parameter's unit; null: no proposal. */
  sizeSetWidth: z.number().gt(0, 'The window width must be above 0.').max(1e6).nullable().default(null),
  deviceFits: z.array(deviceFitSchema).max(analysisLimits.deviceFits).default([]),
});
export type AnalysisSettings = z.infer<typeof analysisSettingsSchema>;

/** Moves a percentile to the closest valid one, 0–100 (spec §5 "Percentile"). */
export function clampAnalysisPercentile(p: number): number {
  return Math.min(100, Math.max(0, p));
}

/**
 * Settings as stored and answered: percentiles moved into 0–100 (spec §5), then sorted without repeats (two
 * values moved to the same one count once); the seed percentile moved likewise. Server and page use the same.
 */
export function normalizeAnalysisSettings(settings: AnalysisSettings): AnalysisSettings {
  return {
    ...settings,
    percentiles: [...new Set(settings.percentiles.map(clampAnalysisPercentile))].sort((a, b) => a - b),
    seedPercentile: clampAnalysisPercentile(settings.seedPercentile),
  };
}
export type AnalysisSettingsInput = z.input<typeof analysisSettingsSchema>;
export type DeviceFit = z.infer<typeof deviceFitSchema>;
export type DeviceSize = z.infer<typeof deviceSizeSchema>;

const parametersSchema = z
  .array(parameterKeySchema)
  .min(1, 'Choose at least one parameter.')
  .max(analysisLimits.parameters)
  .refine((keys) => new Set(keys).size === keys.length, 'Each parameter can be chosen once.');

const excludedSchema = z.array(text().min(1).max(40)).max(analysisLimits.excluded);

const nameSchema = text()
  .trim()
  .max(analysisNameMaxLength, `The name can have at most ${analysisNameMaxLength} characters.`);

/** `POST /api/devices/:deviceId/projects/:projectId/analyses`. */
export const createAnalysisSchema = z.object({
  /** A cohort of the project, or one of its ready imaging cohorts (the imaging dataset's id). */
  cohortId: z.uuid({ error: 'Choose a patient cohort of the project.' }),
  name: nameSchema.default(''),
  parameters: parametersSchema,
  settings: analysisSettingsSchema.default(() => analysisSettingsSchema.parse({})),
  excluded: excludedSchema.default([]),
  /** Why patients are excluded (issue 20): required by the server when `excluded` is not empty. */
  reason: reasonSchema.optional(),
});
export type CreateAnalysis = z.input<typeof createAnalysisSchema>;

/**
 * `PATCH …/analyses/:analysisId`: the fields to change; `settings` replaces the settings whole (the page holds
 * all of them). The revision the change is based on comes as `revision` or as the `If-Match` header.
 */
export const updateAnalysisSchema = z.object({
  revision: z.number().int().min(1).optional(),
  name: nameSchema.optional(),
  parameters: parametersSchema.optional(),
  settings: analysisSettingsSchema.optional(),
  excluded: excludedSchema.optional(),
  /**
   * The reason for change (issue 20): which patients are excluded changes what the analysis says, so the server
   * refuses a change of `excluded` without one (the page asks for it at each exclusion or inclusion).
   */
  reason: reasonSchema.optional(),
});
export type UpdateAnalysis = z.input<typeof updateAnalysisSchema>;

export const analysisCohortSchema = z.object({
  id: text(),
  name: text(),
  size: z.number().int(),
  status: text(),
  /** `virtual`: a cohort of the built-in (synthetic) patients; `imaging`: the delivered patients of an imaging dataset. */
  source: z.enum(['virtual', 'imaging']),
});

/** One analysis as listed. */
export const analysisSummarySchema = z.object({
  id: text(),
  projectId: text(),
  name: text(),
  cohort: analysisCohortSchema,
  parameters: z.array(text()),
  excludedCount: z.number().int(),
  revision: z.number().int(),
  createdBy: z.object({ id: text(), fullName: text() }).nullable(),
  createdAt: text(),
  updatedAt: text(),
});
export type AnalysisSummary = z.infer<typeof analysisSummarySchema>;

export const analysisListSchema = z.object({
  items: z.array(analysisSummarySchema),
  /** Whether the caller may create and change analyses of this project (`project.work`). */
  canEdit: z.boolean(),
});
export type AnalysisList = z.infer<typeof analysisListSchema>;

/** One analysis with everything the page needs to recompute it. */
export const analysisSchema = analysisSummarySchema.extend({
  settings: analysisSettingsSchema,
  excluded: z.array(text()),
  canEdit: z.boolean(),
  /**
   * Answered by the save that took parameters out because they are gone (a deleted trial's outcomes, issue 17):
   * the saved analysis no longer has them, and the page says which and why.
   */
  dropped: z.array(droppedAnalysisParameterSchema).optional(),
});
export type Analysis = z.infer<typeof analysisSchema>;

export const projectAnalysesParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const analysisParamsSchema = projectAnalysesParamsSchema.extend({ analysisId: z.uuid() });

/** An analysable parameter of a patient: its key, label, unit and display precision. */
export const analysisParameterSchema = z.object({
  key: text(),
  /**
   * `outcome`: a trial's outcome (issue 17), added by the page from the trial API; `measurement`: a measurement of
   * a ready order on the cohort (issue 23), added by the page from the measurement API.
   */
  group: z.enum(['body', 'cardiac', 'outcome', 'measurement']),
  label: text(),
  unit: text(),
  decimals: z.number().int(),
});
export type AnalysisParameter = z.infer<typeof analysisParameterSchema>;

/**
 * `GET /api/devices/:deviceId/cohorts/:cohortId/parameters`: every patient of a ready cohort with every
 * analysable parameter, as columns — `values[j][i]` is parameter j of patient i — so the page's worker builds
 * its matrix without one object per cell.
 */
export const cohortParameterTableSchema = z.object({
  cohortId: text(),
  /** True for the built-in (virtual) patients; false for the delivered patients of the user's own imaging data. */
  synthetic: z.boolean(),
  patients: z.array(text()),
  /** '' where unknown (imaging patients: de-identification removed it). */
  sex: z.array(text()),
  /** null where unknown (imaging patients). */
  age: z.array(z.number().nullable()),
  parameters: z.array(analysisParameterSchema),
  values: z.array(z.array(z.number())),
});
export type CohortParameterTable = z.infer<typeof cohortParameterTableSchema>;

const analysesPath = '/api/devices/:deviceId/projects/:projectId/analyses';
const analysisPath = `${analysesPath}/:analysisId` as const;

/** Population analyses of a project (docs/decisions/endpoints-in-contracts.md). */
export const analysisEndpoints = {
  list: endpoint({
    method: 'GET',
    path: analysesPath,
    params: projectAnalysesParamsSchema,
    response: { 200: analysisListSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: analysesPath,
    params: projectAnalysesParamsSchema,
    body: createAnalysisSchema,
    response: { 201: analysisSchema },
  }),
  get: endpoint({ method: 'GET', path: analysisPath, params: analysisParamsSchema, response: { 200: analysisSchema } }),
  /** On top of a revision (the body's, or `If-Match`); 409 when the analysis moved on. */
  update: endpoint({
    method: 'PATCH',
    path: analysisPath,
    params: analysisParamsSchema,
    body: updateAnalysisSchema,
    response: { 200: analysisSchema },
  }),
  /** The cohort compared with a reference population the caller sends (issue 23); stores nothing. */
  representativeness: endpoint({
    method: 'POST',
    path: `${analysisPath}/representativeness`,
    params: analysisParamsSchema,
    body: representativenessRequestSchema,
    response: { 200: representativenessSchema },
  }),
  /** The report as PDF (a file, not JSON), made when asked. */
  report: endpoint({
    method: 'POST',
    path: `${analysisPath}/report`,
    params: analysisParamsSchema,
    body: analysisReportRequestSchema,
  }),
};
