import { describe, expect, it } from 'vitest';
import type { Representativeness } from '@insilico/contracts';
import { toCsv } from './exports';
import { erf, overlayOf, representativenessReport } from './representativeness';

const compared = (referenceValues: number[] | null): Representativeness['parameters'][number] => ({
  key: 'aorticAnnulusPerimeter_mm',
  label: 'Aortic annulus perimeter',
  unit: 'mm',
  cohort: { n: 4, mean: 2.5, sd: 1.29, p5: null, p50: null, p95: null },
  reference: { n: 506, mean: 10, sd: 2, p5: null, p50: null, p95: null },
  referenceValues,
  ks: referenceValues ? { statistic: 1, pValue: 0.03, method: 'exact' } : null,
  range: referenceValues ? { rangeFraction: 0.5, patientFraction: 0.25 } : null,
  standardisedDifference: -3.75,
  sdRatio: 0.645,
});

describe('representativeness on the page', () => {
  it('bins both samples on their common range, each bar a share of its sample', () => {
    const overlay = overlayOf([0, 1, 2, 3], compared([3, 4, 5, 20]));
    expect(overlay.centres).toHaveLength(20);
    expect(overlay.centres[0]).toBeCloseTo(0.5, 12);
    expect(overlay.cohort.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
    expect(overlay.reference.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
    // 20 falls in the last bin, not past it.
    expect(overlay.reference[19]).toBe(0.25);
  });

  it('draws published statistics as the normal law’s mass per bin (erf within 1.5e-7 of the tabulated values)', () => {
    // Abramowitz & Stegun Table 7.1: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650.
    expect(Math.abs(erf(0.5) - 0.5204998778)).toBeLessThan(1.5e-7);
    expect(Math.abs(erf(1) - 0.8427007929)).toBeLessThan(1.5e-7);
    expect(Math.abs(erf(-2) + 0.995322265)).toBeLessThan(1.5e-7);
    const overlay = overlayOf([9, 10, 11], compared(null));
    // Over mean ± 3 SD the normal law holds 99.73 % of its mass.
    expect(overlay.reference.reduce((a, b) => a + b)).toBeCloseTo(0.9973, 3);
  });

  it('writes a one-page CSV report naming the cohort’s model version and the reference’s source', () => {
    const result: Representativeness = {
      analysisId: 'a',
      cohort: { id: 'c', name: 'TAVI 20', modelVersion: 'population-2026.11', patients: 20 },
      source: 'Registry X 2024 (n = 506)',
      referenceKind: 'patients',
      referencePatients: 506,
      ignoredColumns: [],
      parameters: [compared([3, 4, 5, 20])],
      energy: {
        energy: 0.4,
        statistic: 7.6,
        pValue: 0.002,
        permutations: 499,
        cohortPatients: 20,
        referencePatients: 506,
      },
      mahalanobis: { distances: [], expected: [], degreesOfFreedom: 1, beyond95: 0.1 },
      createdAt: '2026-11-28T03:00:00.000Z',
    };
    const lines = toCsv(representativenessReport(result)).split('\r\n');
    expect(lines[0]).toBe(`Representativeness report${','.repeat(13)}`);
    expect(lines).toContain(`Population model version,population-2026.11${','.repeat(12)}`);
    expect(lines).toContain(`Reference source,Registry X 2024 (n = 506)${','.repeat(12)}`);
    expect(lines.find((l) => l.startsWith('Parameter,Unit'))).toContain('KS p-value');
    expect(lines.find((l) => l.startsWith('Aortic annulus perimeter'))).toBe(
      'Aortic annulus perimeter,mm,4,2.5,1.29,506,10,2,-3.75,0.645,1,0.03,50,25',
    );
  });
});
