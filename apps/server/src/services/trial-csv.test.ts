import type { TrialDetail } from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { describe, expect, it } from 'vitest';
import { trialOutcomesCsv } from './trial-csv';

const speed = { source: 'object', label: 'Speed', field: 'velocity', particles: 'max', over: 'max' } as const;
const patient = (patientId: string, over: Partial<TrialDetail['patients'][number]>) =>
  ({ patientId, status: 'done', stage: null, error: null, outcomes: null, earlierOutcomes: [], ...over }) as never;

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
        }),
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
        'Peak velocity (m/s)',
        'Speed (m/s), version 2',
        "'=Gone (m/s), version 1 (earlier)",
        'Speed (m/s), version 1 (earlier)',
      ],
      ['SYN-1', 'done', '', '', '1.25', '1.25', '0.5', '0.75'],
      ['SYN-2', 'failed', 'placement', 'The aortic annulus measures 27.4 mm, outside.', '', '', '', ''],
    ]);
  });
});
