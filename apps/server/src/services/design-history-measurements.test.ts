import { describe, expect, it } from 'vitest';
import { measurementSnapshotSummary } from './design-history-measurements';

const cell = (
  value: number | null,
  extra: { automatic?: number | null; corrected?: number | null; failure?: string } = {},
) => ({
  automatic: extra.automatic ?? value,
  corrected: extra.corrected ?? null,
  failure: extra.failure ?? null,
  value,
});

describe('measurementSnapshotSummary', () => {
  it('counts measured, failed and corrected patients per measurement and summarises the used values', () => {
    const summary = measurementSnapshotSummary({
      content: {
        kind: 'measurement-results',
        order: {
          id: 'o-1',
          cohortId: 'c-1',
          cohortName: 'TAVI cohort',
          measurements: [
            { definitionId: 'd-1', version: 2, name: 'Annulus perimeter', unit: 'mm', phase: 'end-diastole' },
            { definitionId: 'd-2', version: 1, name: 'Annulus area', unit: 'mm²', phase: 'end-systole' },
          ],
        },
        patients: [
          { patientId: 'SYN-000001', cells: [cell(70), cell(400)], correction: null },
          {
            patientId: 'SYN-000002',
            // The corrected value is the one used (74), not the automatic (90).
            cells: [cell(74, { automatic: 90, corrected: 74 }), cell(null, { failure: 'No annulus found.' })],
            correction: { landmarks: ['aortic_annulus'], by: null, at: '2026-11-28T08:00:00.000Z' },
          },
          { patientId: 'SYN-000003', cells: [cell(78), cell(500)], correction: null },
        ],
      },
    });
    expect(summary).toEqual({
      cohortName: 'TAVI cohort',
      patients: 3,
      rows: [
        {
          name: 'Annulus perimeter',
          version: 2,
          phase: 'end-diastole',
          unit: 'mm',
          measured: 3,
          failed: 0,
          corrected: 1,
          mean: 74,
          min: 70,
          max: 78,
        },
        {
          name: 'Annulus area',
          version: 1,
          phase: 'end-systole',
          unit: 'mm²',
          measured: 2,
          failed: 1,
          corrected: 0,
          mean: 450,
          min: 400,
          max: 500,
        },
      ],
    });
  });

  it('answers null for kept results of another kind, and no values when every patient failed', () => {
    expect(measurementSnapshotSummary({ content: { kind: 'ssm-results' } })).toBeNull();
    const failed = measurementSnapshotSummary({
      content: {
        kind: 'measurement-results',
        order: {
          cohortName: 'C',
          measurements: [{ definitionId: 'd', version: 1, name: 'Height', unit: 'mm', phase: 'end-diastole' }],
        },
        patients: [
          { patientId: 'SYN-000001', cells: [cell(null, { failure: 'Out of the image.' })], correction: null },
        ],
      },
    });
    expect(failed?.rows[0]).toMatchObject({ measured: 0, failed: 1, mean: null, min: null, max: null });
  });
});
