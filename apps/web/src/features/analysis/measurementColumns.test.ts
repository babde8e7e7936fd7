import { describe, expect, it } from 'vitest';
import type { CohortParameterTable, MeasurementOrder } from '@insilico/contracts';
import { lackingWhat, readyOrdersOn, withMeasurements } from './measurementColumns';

const table: CohortParameterTable = {
  cohortId: 'c',
  synthetic: true,
  patients: ['SYN-000001', 'SYN-000002', 'SYN-000003'],
  sex: ['F', 'M', 'F'],
  age: [70, 80, 75],
  parameters: [{ key: 'height_cm', group: 'body', label: 'Height', unit: 'cm', decimals: 1 }],
  values: [[160, 175, 168]],
};
const orderId = '11111111-2222-4333-8444-555555555555';
const cell = (value: number | null, corrected: number | null = null) => ({
  automatic: value,
  failure: value === null ? 'This patient has no end-systole images.' : null,
  corrected,
  value: corrected ?? value,
});
const order: MeasurementOrder = {
  id: orderId,
  deviceId: 'd',
  cohortId: 'c',
  cohortName: 'C',
  status: 'ready',
  progress: 1,
  error: null,
  measurements: [
    { definitionId: 'scct-tavi/annulus-perimeter@1', version: 1, name: 'Perimeter', unit: 'mm', phase: 'end-systole' },
    { definitionId: 'scct-tavi/annulus-area@1', version: 1, name: 'Area', unit: 'mm²', phase: 'end-systole' },
  ],
  // Another order than the table's; the second patient failed; the third was corrected by hand.
  patients: [
    { patientId: 'SYN-000003', cells: [cell(70, 71.5), cell(400)], correction: null },
    { patientId: 'SYN-000002', cells: [cell(null), cell(null)], correction: null },
    { patientId: 'SYN-000001', cells: [cell(68), cell(380)], correction: null },
  ],
  createdAt: '2026-11-28T03:00:00.000Z',
  createdBy: null,
};

describe('measurements in the analysis table', () => {
  it('adds each measurement as a parameter in the table’s patient order, the corrected value first, NaN where it failed', () => {
    const merged = withMeasurements(table, [order]);
    expect(merged.parameters.slice(1)).toEqual([
      { key: `measurement.${orderId}.0`, group: 'measurement', label: 'Perimeter (measured)', unit: 'mm', decimals: 1 },
      { key: `measurement.${orderId}.1`, group: 'measurement', label: 'Area (measured)', unit: 'mm²', decimals: 0 },
    ]);
    expect(merged.values[1]).toEqual([68, Number.NaN, 71.5]);
    expect(merged.values[2]).toEqual([380, Number.NaN, 400]);
    expect(table.parameters).toHaveLength(1);
  });

  it('ignores orders on other cohorts or not ready, and names the order when the cohort has several', () => {
    expect(withMeasurements(table, [{ ...order, cohortId: 'other' }])).toBe(table);
    expect(withMeasurements(table, [{ ...order, status: 'in_progress', patients: [] }])).toBe(table);
    const second = { ...order, id: '11111111-2222-4333-8444-666666666666', createdAt: '2026-11-29T00:00:00.000Z' };
    const labels = withMeasurements(table, [order, second]).parameters.map((p) => p.label);
    expect(labels.slice(1)).toEqual([
      'Perimeter (measured 2026-11-28)',
      'Area (measured 2026-11-28)',
      'Perimeter (measured 2026-11-29)',
      'Area (measured 2026-11-29)',
    ]);
  });

  it('lists the ready orders of a cohort, oldest first', () => {
    const items = [
      { ...order, id: 'b', createdAt: '2026-11-29T00:00:00.000Z' },
      { ...order, id: 'a' },
      { ...order, id: 'x', status: 'failed' as const },
      { ...order, id: 'y', cohortId: 'other' },
    ];
    expect(readyOrdersOn({ items }, 'c').map((o) => o.id)).toEqual(['a', 'b']);
  });

  it('says what the left-out patients lack', () => {
    const merged = withMeasurements(table, [order]);
    expect(lackingWhat(merged, ['height_cm', `measurement.${orderId}.0`])).toBe('measurement');
    const withOutcome: CohortParameterTable = {
      ...merged,
      parameters: [...merged.parameters, { key: 'trial.t.x', group: 'outcome', label: 'X', unit: '', decimals: 1 }],
      values: [...merged.values, [1, 2, Number.NaN]],
    };
    expect(lackingWhat(withOutcome, ['trial.t.x'])).toBe('trial outcome');
    expect(lackingWhat(withOutcome, ['trial.t.x', `measurement.${orderId}.1`])).toBe('trial outcome or measurement');
  });
});
