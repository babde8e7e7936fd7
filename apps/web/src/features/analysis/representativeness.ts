import type { Representativeness } from '@insilico/contracts';
import type { CsvTable } from './exports';

type Compared = Representativeness['parameters'][number];

/** Bins shared by the cohort and the reference for the overlay: over both samples' range. */
const overlayBins = 20;

export interface Overlay {
  /** Bin centres, in the parameter's unit. */
  centres: number[];
  /** Share of the cohort (0–1) per bin. */
  cohort: number[];
  /** Share of the reference per bin (its patients), or the normal law's mass per bin (published mean and SD). */
  reference: number[];
}

/**
 * The two distributions of one parameter on common bins: the cohort's values against the reference's patients, or
 * against a normal law with the published mean and SD (its mass per bin, from the error function).
 */
export function overlayOf(cohortValues: readonly number[], compared: Compared): Overlay {
  const cohort = cohortValues.filter(Number.isFinite);
  const reference = compared.referenceValues?.filter(Number.isFinite) ?? null;
  const { mean, sd } = compared.reference;
  const all = reference ? [...cohort, ...reference] : [...cohort, mean - 3 * sd, mean + 3 * sd];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const width = (hi - lo) / overlayBins || 1;
  const centres = Array.from({ length: overlayBins }, (_, b) => lo + (b + 0.5) * width);
  const shares = (values: readonly number[]) => {
    const counts = new Array<number>(overlayBins).fill(0);
    for (const v of values) counts[Math.min(overlayBins - 1, Math.floor((v - lo) / width))]! += 1;
    return counts.map((c) => (values.length === 0 ? 0 : c / values.length));
  };
  const normalCdf = (x: number) => 0.5 * (1 + erf((x - mean) / (sd * Math.SQRT2)));
  return {
    centres,
    cohort: shares(cohort),
    reference: reference ? shares(reference) : centres.map((c) => normalCdf(c + width / 2) - normalCdf(c - width / 2)),
  };
}

/** The error function (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7: ample for bars on a chart). */
export function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x < 0 ? -y : y;
}

/**
 * The one-page representativeness report as CSV (issue 23): what was compared with what (cohort, its population
 * model version, the reference and its source, when), the multivariate results, then one row per parameter.
 */
export function representativenessReport(result: Representativeness): CsvTable {
  const header = [
    'Parameter',
    'Unit',
    'Cohort n',
    'Cohort mean',
    'Cohort SD',
    'Reference n',
    'Reference mean',
    'Reference SD',
    'Standardised difference (reference SD)',
    'SD ratio (cohort / reference)',
    'KS statistic D',
    'KS p-value',
    'Reference range covered (%)',
    'Reference patients in cohort range (%)',
  ];
  const pad = (cells: (string | number | null)[]) => [
    ...cells,
    ...new Array<null>(header.length - cells.length).fill(null),
  ];
  const meta: (string | number | null)[][] = [
    ['Cohort', result.cohort.name],
    ['Population model version', result.cohort.modelVersion],
    ['Cohort patients', result.cohort.patients],
    ['Reference', result.referenceKind === 'patients' ? 'Patients (CSV)' : 'Published summary statistics'],
    ['Reference source', result.source],
    ['Reference patients', result.referencePatients],
    ['Compared at', result.createdAt],
    ['Energy distance (reference-SD units)', result.energy?.energy ?? null],
    ['Energy test p-value', result.energy?.pValue ?? null],
    ['Energy test permutations', result.energy?.permutations ?? null],
    [
      'Mahalanobis: cohort beyond the reference χ² 95 % quantile (%)',
      result.mahalanobis ? result.mahalanobis.beyond95 * 100 : null,
    ],
    [],
  ];
  return {
    columns: ['Representativeness report', ...new Array<string>(header.length - 1).fill('')],
    rows: [
      ...meta.map(pad),
      header,
      ...result.parameters.map((p) => [
        p.label,
        p.unit,
        p.cohort.n,
        p.cohort.mean,
        p.cohort.sd,
        p.reference.n,
        p.reference.mean,
        p.reference.sd,
        p.standardisedDifference,
        p.sdRatio,
        p.ks?.statistic ?? null,
        p.ks?.pValue ?? null,
        p.range ? p.range.rangeFraction * 100 : null,
        p.range ? p.range.patientFraction * 100 : null,
      ]),
    ],
  };
}
