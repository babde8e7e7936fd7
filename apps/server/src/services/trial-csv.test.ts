import type { TrialDetail } from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { describe, expect, it } from 'vitest';
import { trialOutcomesCsv } from './trial-csv';

const speed = { source: 'object', label: 'Speed', field: 'velocity', particles: 'max', over: 'max' } as const;
const placedBy = { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: null } as const;
const patient = (patientId: string, over: Partial<TrialDetail['patients'][number]>) =>
  ({
    patientId,
    status: 'done',
    stage: null,
    error: null,
    placement: placedBy,
    outcomes: null,
    earlierOutcomes: [],
    ...over,
  }) as never;

describe('a trial’s outcomes as CSV', () => {
  it('has a row per patient, the outcomes now with units and versions, then earlier versions’ values', () => {
    const trial = {
      kind: 'fluid',
      outcomes: [
        { key: 'peak_velocity', label: 'Peak velocity', unit: 'm/s', description: '' },
        { key: 'user_2', label: 'Speed', unit: 'm/s', description: '' },
      ],
      customOutcomes: [{ key: 'user_2', version: 2, definition: speed }],
      customOutcomeHistory: [
        { key: 'user_1', version: 1, definition: { ...speed, label: '=Gone' }, since: 'a', until: 'b', by: null },
        { key: 'user_2', version: 1, definition: { ...speed, over: 'mean' }, since: 'a', until: 'b', by: null },
        { key: 'user_2', version: 2, definition: speed, since: 'b', until: null, by: null },
      ],
      patients: [
        patient('SYN-1', {
          outcomes: { peak_velocity: 1.25, user_2: 1.25 },
          earlierOutcomes: [
            { key: 'user_1', version: 1, value: 0.5 },
            { key: 'user_2', version: 1, value: 0.75 },
          ],
        }),
        patient('SYN-2', {
          status: 'failed',
          stage: 'placement',
          error: 'The aortic annulus measures 27.4 mm, outside.',
          placement: { landmark: 'aortic_annulus', depth_mm: -2.5, annulusRange_mm: { min: 20, max: 26 } },
        }),
        // Retried under a corrected rule: each row names its own rule, not the trial's now.
        patient('SYN-3', {
          outcomes: { peak_velocity: 1.5, user_2: 1.5 },
          placement: { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 20, max: 29 } },
        }),
        patient('SYN-4', { status: 'queued', placement: null }),
      ],
    } as unknown as TrialDetail;
    const text = trialOutcomesCsv(trial);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(readCsv(text)).toEqual([
      [
        'Patient',
        'Status',
        'Failed at',
        'Reason',
        'Placement rule',
        'Peak velocity (m/s)',
        'Speed (m/s), version 2',
        "'=Gone (m/s), version 1 (earlier)",
        'Speed (m/s), version 1 (earlier)',
      ],
      ['SYN-1', 'done', '', '', 'aortic annulus, depth 2 mm', '1.25', '1.25', '0.5', '0.75'],
      [
        'SYN-2',
        'failed',
        'placement',
        'The aortic annulus measures 27.4 mm, outside.',
        'aortic annulus, depth -2.5 mm, annulus 20–26 mm',
        '',
        '',
        '',
        '',
      ],
      ['SYN-3', 'done', '', '', 'aortic annulus, depth 2 mm, annulus 20–29 mm', '1.5', '1.5', '', ''],
      ['SYN-4', 'queued', '', '', '', '', '', '', ''],
    ]);
  });
});
