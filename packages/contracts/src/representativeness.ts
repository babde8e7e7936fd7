import { z } from 'zod';
import { text } from './text';

/**
 * Is the virtual cohort representative of a reference population (issue 23)? The caller sends a reference — a
 * CSV of real patients' parameters (de-identified) or published summary statistics — with its source; the server
 * checks it and answers, per parameter, the two distributions, a two-sample Kolmogorov–Smirnov test and the
 * reference's range the cohort covers, and over all parameters the energy distance with a permutation p-value and
 * the Mahalanobis χ² QQ plot. Nothing is stored: the reference stays in the request (docs/decisions/representativeness.md).
 */

export const representativenessLimits = {
  /** The CSV's size in characters (about 20,000 patients × 30 parameters). */
  csvChars: 5_000_000,
  referencePatients: 20_000,
  /** At least this many reference patients with a value per parameter: fewer say little about a distribution. */
  minReferencePatients: 10,
  parameters: 40,
  permutations: 999,
} as const;

const finite = (what: string) => z.number({ error: `${what} must be a number.` });
const key = text().min(1).max(80);

const summaryParameterSchema = z
  .object({
    key,
    mean: finite('A mean'),
    sd: finite('An SD').gt(0, 'An SD must be above 0.'),
    /** Patients behind the statistics, where the source says. */
    n: z.number().int().min(1).max(10_000_000).nullable().default(null),
    /** Published percentiles (0–100) and their values, ascending. */
    percentiles: z
      .array(z.object({ p: finite('A percentile').gt(0).lt(100), value: finite('A percentile value') }))
      .max(20)
      .default([]),
  })
  .strict();

export const representativenessReferenceSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('patients'),
      /** Header: parameter keys or labels (a unit in brackets is ignored); one row per patient; empty = missing. */
      csv: text()
        .min(1, 'The reference file is empty.')
        .max(representativenessLimits.csvChars, 'The reference file is larger than 5 MB.'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('summary'),
      parameters: z.array(summaryParameterSchema).min(1, 'Give the statistics of at least one parameter.').max(40),
      /** Correlations between pairs of the parameters given (Pearson); pairs not given count as 0. */
      correlations: z
        .array(z.object({ a: key, b: key, r: finite('A correlation').min(-1).max(1) }).strict())
        .max(800)
        .default([]),
    })
    .strict(),
]);

/** `POST …/analyses/:analysisId/representativeness`. */
export const representativenessRequestSchema = z
  .object({
    /** Where the reference comes from (a publication, a registry, a study), shown on the report. */
    source: text().trim().min(1, 'Say where the reference comes from.').max(500),
    reference: representativenessReferenceSchema,
    /** The cohort parameters to compare (the analysis' by default). */
    parameters: z
      .array(key)
      .min(1, 'Choose at least one parameter.')
      .max(representativenessLimits.parameters)
      .optional(),
    permutations: z.number().int().min(0).max(representativenessLimits.permutations).default(499),
  })
  .strict();
export type RepresentativenessRequest = z.input<typeof representativenessRequestSchema>;

const distributionSchema = z.object({
  n: z.number().int().nullable(),
  mean: z.number(),
  sd: z.number(),
  /** Percentiles 5, 50, 95 (numpy linear); published ones where the source gives them, else null. */
  p5: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
});

export const representativenessParameterSchema = z.object({
  key: text(),
  label: text(),
  unit: text(),
  cohort: distributionSchema,
  reference: distributionSchema,
  /** The reference's values (patients' CSV only), for the overlay; null for summary statistics. */
  referenceValues: z.array(z.number()).nullable(),
  /** Two-sample Kolmogorov–Smirnov (patients' CSV only). */
  ks: z.object({ statistic: z.number(), pValue: z.number(), method: z.enum(['exact', 'asymptotic']) }).nullable(),
  /** Shares (0–1) of the reference's range and patients inside the cohort's range (patients' CSV only). */
  range: z.object({ rangeFraction: z.number(), patientFraction: z.number() }).nullable(),
  /** (cohort mean − reference mean) / reference SD. */
  standardisedDifference: z.number(),
  /** cohort SD / reference SD. */
  sdRatio: z.number(),
});

export const representativenessSchema = z.object({
  analysisId: text(),
  cohort: z.object({ id: text(), name: text(), modelVersion: text(), patients: z.number().int() }),
  source: text(),
  referenceKind: z.enum(['patients', 'summary']),
  /** Reference patients read from the CSV (null for summary statistics). */
  referencePatients: z.number().int().nullable(),
  /** CSV columns that named no parameter of the cohort (not compared). */
  ignoredColumns: z.array(text()),
  parameters: z.array(representativenessParameterSchema),
  /** Energy distance on the parameters scaled by the reference's SDs (patients' CSV, two or more parameters). */
  energy: z
    .object({
      energy: z.number(),
      statistic: z.number(),
      pValue: z.number(),
      permutations: z.number().int(),
      cohortPatients: z.number().int(),
      referencePatients: z.number().int(),
    })
    .nullable(),
  /** The cohort's squared Mahalanobis distances from the reference against χ²(p) quantiles. */
  mahalanobis: z
    .object({
      distances: z.array(z.number()),
      expected: z.array(z.number()),
      degreesOfFreedom: z.number().int(),
      beyond95: z.number(),
    })
    .nullable(),
  createdAt: text(),
});
export type Representativeness = z.infer<typeof representativenessSchema>;
