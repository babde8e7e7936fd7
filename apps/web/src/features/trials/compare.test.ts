import { describe, expect, it } from 'vitest';
import type { TrialDetail } from '@insilico/contracts';
import { compareOutcome } from './compare';

const trial = (values: Record<string, number | null>): Pick<TrialDetail, 'patients'> => ({
  patients: Object.entries(values).map(([patientId, value]) => ({
    patientId,
    status: 'done',
    error: null,
    stage: null,
    roomId: null,
    simulationId: null,
    simulationStatus: null,
    progress: 1,
    etaSeconds: null,
    outcomes: value === null ? null : { pressure_drop: value },
    outcomeNotes: {},
  })),
});

describe('compareOutcome', () => {
  it('pairs patients by id, differences where both have a value, and their mean', () => {
    const result = compareOutcome(
      trial({ 'SYN-1': 10, 'SYN-2': 12, 'SYN-3': null }),
      trial({ 'SYN-2': 9, 'SYN-1': 14, 'SYN-3': 7 }),
      'pressure_drop',
    );
    expect(result.patients).toEqual([
      { patientId: 'SYN-2', base: 12, current: 9, difference: -3 },
      { patientId: 'SYN-1', base: 10, current: 14, difference: 4 },
      { patientId: 'SYN-3', base: null, current: 7, difference: null },
    ]);
    expect(result.meanDifference).toBe(0.5);
    expect(result.paired).toBe(2);
  });

  it('has no mean without a pair', () => {
    expect(compareOutcome(trial({ 'SYN-1': null }), trial({ 'SYN-1': 3 }), 'pressure_drop').meanDifference).toBeNull();
  });
});
