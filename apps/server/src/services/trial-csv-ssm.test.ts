import type { TrialDetail } from '@insilico/contracts';
import { readCsv } from '@insilico/contracts/csv';
import { describe, expect, it } from 'vitest';
import { trialOutcomesCsv } from './trial-csv';

describe('a trial on an SSM’s named instances as CSV', () => {
  it('names each row by the instance and its shape', () => {
    const row = (patientId: string, name: string, shape: string, over: Partial<TrialDetail['patients'][number]>) =>
      ({
        patientId,
        instance: { name, shape },
        stage: null,
        error: null,
        placement: null,
        earlierOutcomes: [],
        ...over,
      }) as never;
    const trial = {
      kind: 'fluid',
      ssm: { id: '00000000-0000-4000-8000-000000000001', name: 'Roots' },
      outcomes: [{ key: 'peak_velocity', label: 'Peak velocity', unit: 'm/s', description: '' }],
      customOutcomes: [],
      customOutcomeHistory: [],
      patients: [
        row('00000000-0000-4000-8000-00000000000a', 'Roots: mean', 'mean', {
          status: 'done',
          outcomes: { peak_velocity: 1.5 },
        }),
        row('00000000-0000-4000-8000-00000000000b', 'Roots: Shape: mode 1 +2 SD', '2', {
          status: 'failed',
          stage: 'placement',
          error: 'The aortic annulus measures 27.4 mm, outside the device’s size range 20–26 mm.',
          outcomes: null,
        }),
      ],
    } as unknown as TrialDetail;
    expect(readCsv(trialOutcomesCsv(trial))).toEqual([
      ['Instance', 'Shape', 'Status', 'Failed at', 'Reason', 'Placement rule', 'Peak velocity (m/s)'],
      ['Roots: mean', 'mean', 'done', '', '', '', '1.5'],
      [
        'Roots: Shape: mode 1 +2 SD',
        '2',
        'failed',
        'placement',
        'The aortic annulus measures 27.4 mm, outside the device’s size range 20–26 mm.',
        '',
        '',
      ],
    ]);
  });
});
