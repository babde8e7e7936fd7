import { describe, expect, it } from 'vitest';
import type { ImagingDatasetRow } from '../repositories/imaging.repository';
import { ServiceError } from './errors';
import { assertRegistrable, imagingShapesOf } from './ssm-imaging-shapes';

type Model = { organ: string; phase: string; triangles: number };
const row = (patients: { patient: string; models: Model[]; landmarks?: string[] }[]) =>
  ({
    id: 'ds',
    name: 'Our CTs',
    models: {
      patients: patients.map((p) => ({
        patient: p.patient,
        landmarks: (p.landmarks ?? ['Aortic annulus']).map((name) => ({ name, position: [0, 0, 0] })),
        models: p.models.map((m) => ({ ...m, patient: p.patient, volume: 1 })),
      })),
    },
  }) as unknown as ImagingDatasetRow;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ServiceError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};
const root = (phase: string, triangles = 196): Model => ({ organ: 'Aortic-Root', phase, triangles });
const at = { organs: ['aortic_root' as const], phase: 'end-diastole' as const, excludedPatients: [] };

describe('imaging patients as shapes of a model', () => {
  it('matches the phase by its cardiac meaning and keeps landmarks by anatomy name', () => {
    const shapes = imagingShapesOf([row([{ patient: 'P1', models: [root('ED'), root('End-Systole', 400)] }])], at);
    expect(shapes).toEqual([
      {
        patientId: 'P1',
        cohortId: 'ds',
        phase: 'ed',
        landmarks: [{ name: 'aortic_annulus', position: [0, 0, 0] }],
      },
    ]);
    expect(
      imagingShapesOf([row([{ patient: 'P1', models: [root('ED')] }])], { ...at, excludedPatients: ['P1'] }),
    ).toEqual([]);
  });

  it('names the patients lacking the phase, or an organ at it', () => {
    const dataset = row([
      { patient: 'P1', models: [root('end-systole')] },
      { patient: 'P2', models: [root('end-diastole')] },
    ]);
    expect(refusal(() => imagingShapesOf([dataset], at))).toMatchObject({ status: 422, code: 'phase_missing' });
    const organs = { ...at, organs: ['aortic_root' as const, 'lv_blood_pool' as const], excludedPatients: ['P1'] };
    expect(refusal(() => imagingShapesOf([dataset], organs))).toMatchObject({
      code: 'organ_missing',
      message: expect.stringContaining('(P2)') as string,
    });
  });

  it('refuses shapes sharing no landmark', () => {
    const shape = (patientId: string, landmark = 'aortic_annulus') => ({
      patientId,
      cohortId: 'ds',
      phase: 'ed',
      landmarks: [{ name: landmark, position: [0, 0, 0] as [number, number, number] }],
    });
    expect(refusal(() => assertRegistrable([shape('P1'), shape('P2', 'lvot')], false))).toMatchObject({
      code: 'landmarks_missing',
    });
    expect(() => assertRegistrable([shape('P1'), shape('P2')], false)).not.toThrow();
  });
});
