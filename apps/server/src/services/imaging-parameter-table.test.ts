import { describe, expect, it } from 'vitest';
import { imagingParameterTable } from './imaging-parameter-table';

const model = (patient: string, organ: string, phase: string, volume: number) => ({
  patient,
  organ,
  phase,
  triangles: 12,
  volume,
});

describe('imagingParameterTable', () => {
  it('keeps the parameters every patient has, in patient order, with sex and age unknown', () => {
    const table = imagingParameterTable({
      id: 'd1',
      models: {
        patients: [
          // Out of order on purpose: the table is sorted by patient.
          {
            patient: 'P2',
            landmarks: [],
            models: [
              model('P2', 'aortic-root', 'end-diastole', 30_000),
              model('P2', 'lv-blood-pool', 'end-diastole', 150_000),
              model('P2', 'lv-blood-pool', 'end-systole', 60_000),
            ],
          },
          {
            patient: 'P1',
            landmarks: [],
            models: [
              model('P1', 'lv-blood-pool', 'end-diastole', 120_000),
              model('P1', 'lv-blood-pool', 'end-systole', 50_000),
            ],
          },
        ],
      },
    });
    expect(table.synthetic).toBe(false);
    expect(table.patients).toEqual(['P1', 'P2']);
    expect(table.sex).toEqual(['', '']);
    expect(table.age).toEqual([null, null]);
    // P1 has no aortic root: its volume is no column (never filled in).
    expect(table.parameters.map((p) => p.key)).toEqual([
      'volume:lv_blood_pool:end-diastole',
      'volume:lv_blood_pool:end-systole',
      'lvEdv_mL',
      'lvEsv_mL',
      'strokeVolume_mL',
      'lvef_pct',
    ]);
    const at = (key: string) => table.values[table.parameters.findIndex((p) => p.key === key)]!;
    expect(at('lvEdv_mL')).toEqual([120, 150]);
    expect(at('strokeVolume_mL')).toEqual([70, 90]);
    expect(at('lvef_pct')[0]).toBeCloseTo((100 * 70) / 120, 12);
    expect(at('lvef_pct')[1]).toBeCloseTo(60, 12);
  });

  it('answers an empty table for a dataset without delivered models', () => {
    expect(imagingParameterTable({ id: 'd1', models: null })).toMatchObject({
      patients: [],
      parameters: [],
      values: [],
    });
  });
});
