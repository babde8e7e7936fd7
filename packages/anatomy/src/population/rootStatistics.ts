import type { CardiacParameters, SyntheticPatient } from './types';

/** A diameter of the aortic root in the patient record. */
export type RootDiameter = keyof Pick<
  CardiacParameters,
  'aorticAnnulusDiameter_mm' | 'lvotDiameter_mm' | 'sinusOfValsalvaDiameter_mm' | 'sinotubularJunctionDiameter_mm'
>;

/** Sample moments of the root's diameters in a group of patients, as the published series report them. */
export interface RootStatistics {
  /** Mean and SD (n − 1) of a diameter, mm. */
  moments(key: RootDiameter): { mean: number; sd: number };
  /** Pearson correlation of two diameters. */
  correlation(a: RootDiameter, b: RootDiameter): number;
  /** Standard error of the estimate (n − 3) of the sinus diameter regressed on age and BSA (Du Bois), mm. */
  sinusRegressionSee(): number;
}

function covariance(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i += 1) {
    sa += a[i] ?? 0;
    sb += b[i] ?? 0;
  }
  const ma = sa / n;
  const mb = sb / n;
  let s = 0;
  for (let i = 0; i < n; i += 1) s += ((a[i] ?? 0) - ma) * ((b[i] ?? 0) - mb);
  return s / (n - 1);
}

/** The root's statistics in `patients` (at least 4). */
export function rootStatistics(patients: readonly SyntheticPatient[]): RootStatistics {
  if (patients.length < 4) throw new RangeError('root statistics need at least 4 patients');
  const columns = new Map<RootDiameter, Float64Array>();
  const column = (key: RootDiameter): Float64Array => {
    let values = columns.get(key);
    if (values === undefined) {
      values = Float64Array.from(patients, (p) => p.cardiac[key]);
      columns.set(key, values);
    }
    return values;
  };
  return {
    moments: (key) => {
      const values = column(key);
      let sum = 0;
      for (const value of values) sum += value;
      return { mean: sum / values.length, sd: Math.sqrt(covariance(values, values)) };
    },
    correlation: (a, b) => {
      const x = column(a);
      const y = column(b);
      return covariance(x, y) / Math.sqrt(covariance(x, x) * covariance(y, y));
    },
    sinusRegressionSee: () => {
      // Residual variance of y on (age, BSA): var(y) − c'·S⁻¹·c with S the 2 × 2 covariance of the regressors.
      const y = column('sinusOfValsalvaDiameter_mm');
      const age = Float64Array.from(patients, (p) => p.age_years);
      const bsa = Float64Array.from(patients, (p) => p.body.bsaDuBois_m2);
      const [saa, sab, sbb] = [covariance(age, age), covariance(age, bsa), covariance(bsa, bsa)];
      const [cya, cyb] = [covariance(y, age), covariance(y, bsa)];
      const det = saa * sbb - sab * sab;
      const explained = (cya * (sbb * cya - sab * cyb) + cyb * (saa * cyb - sab * cya)) / det;
      const n = patients.length;
      return Math.sqrt(((covariance(y, y) - explained) * (n - 1)) / (n - 3));
    },
  };
}
