import {
  buildPatientMeshes,
  DEFAULT_POPULATION_SEED,
  generatePatient,
  type Landmark,
  type SyntheticPatient,
} from '@insilico/anatomy';
import { hasImagesOf, measurePatient, TAVI_MEASUREMENTS, type MeasurementOutcome } from '@insilico/measure';
import { applyTransform, decodeShapeModel, generalisedProcrustes } from '@insilico/ssm';
import { describe, expect, it } from 'vitest';
import { measureSsmShapes, otherPhaseFailure } from './ssm-measurement.task';
import { modelShape } from './ssm-shape';
import { buildSsm } from './ssm.task';

const context = { progress: () => undefined, transfer: () => undefined };
const valueOf = (o: MeasurementOutcome | undefined): number => {
  if (o === undefined || !('value' in o)) throw new Error(`no value: ${JSON.stringify(o)}`);
  return o.value;
};

/**
 * The reference is independent of the model: each training patient's own meshes and landmarks (the generator's),
 * measured directly. A model holding every mode reproduces its training shapes, so the shape at a patient's
 * coefficients, with the mean's landmarks carried onto it, must measure as the patient does.
 */
describe('measurements on shapes of a statistical shape model', () => {
  const patients: SyntheticPatient[] = Array.from({ length: 60 }, (_, i) =>
    generatePatient(DEFAULT_POPULATION_SEED, 11 + i * 37),
  )
    .filter((p) => hasImagesOf(p, 'end-systole'))
    .slice(0, 12);
  const built = buildSsm(
    {
      patients: patients.map((patient) => ({ patient, cohortId: 'c' })),
      organs: ['aortic_root'],
      phase: 'end-systole',
      seed: 1,
      samples: 5,
      curveModes: 2,
    },
    context,
  );
  const file = decodeShapeModel(built.bytes);
  const roots = patients.map((p) => {
    const meshes = buildPatientMeshes(p, 'end-systole');
    return { positions: meshes.organs.find((o) => o.organ === 'aortic_root')!.mesh.positions, meshes };
  });
  const alignment = generalisedProcrustes(roots.map((r) => r.positions));
  /** A training shape's standard deviations per mode: b_k = φ_k · (x − mean), z_k = b_k / √λ_k. */
  const deviationsOf = (j: number): number[] => {
    const x = alignment.aligned[j]!;
    const d = file.mean.length;
    return Array.from({ length: file.modeCount }, (_, k) => {
      let b = 0;
      for (let i = 0; i < d; i++) b += file.modes[k * d + i]! * (x[i]! - file.mean[i]!);
      return b / Math.sqrt(file.variances[k]!);
    });
  };
  const input = (shapes: number[][]) => ({
    model: built.bytes,
    parts: built.card.parts,
    landmarks: built.landmarks,
    phase: 'end-systole' as const,
    shapes,
    definitions: [...TAVI_MEASUREMENTS],
  });
  // Rigid motions change the angle to the body's axial plane; every other measurement is the patient's.
  const compared = TAVI_MEASUREMENTS.flatMap((d, i) => (d.key === 'annular-plane-angle' ? [] : [i]));
  const tested = [0, 3, 7, 11];

  it.each(tested)('training shape %i: the TAVI set within 1 % of the patient’s own (plane-angle aside)', (j) => {
    const [onShape] = measureSsmShapes(input([deviationsOf(j)]), context);
    const own = measurePatient(patients[j]!, TAVI_MEASUREMENTS).outcomes;
    for (const i of compared) {
      const expected = valueOf(own[i]);
      const got = valueOf(onShape![i]);
      expect(Math.abs(got - expected) / Math.abs(expected), TAVI_MEASUREMENTS[i]!.key).toBeLessThan(0.01);
    }
  });

  it.each(tested)('training shape %i: plane landmarks within 0.05 mm and 0.5° of the patient’s', (j) => {
    // The shape the task measures on (modelShape), against the patient's landmarks moved by its alignment.
    const own = roots[j]!.meshes.landmarks;
    const t = alignment.transforms[j]!;
    const rotate = (v: readonly number[]) =>
      applyTransform(Float64Array.from(v), { ...t, scale: 1, from: [0, 0, 0], to: [0, 0, 0] });
    const shape = modelShape(file, built.card.parts, built.landmarks, deviationsOf(j)).landmarks;
    for (const name of ['aortic_annulus', 'sinotubular_junction', 'lvot', 'ascending_aorta'] as const) {
      const mine = own.find((l) => l.name === name) as Landmark;
      const theirs = shape.find((l) => l.name === name) as Landmark;
      const p = applyTransform(Float64Array.from(mine.position), t);
      expect(Math.hypot(...theirs.position.map((v, a) => v - p[a]!)), name).toBeLessThan(0.05);
      const n = rotate(mine.normal!);
      const cos = theirs.normal!.reduce((s, v, a) => s + v * n[a]!, 0);
      expect(Math.acos(Math.min(1, cos)) * (180 / Math.PI), name).toBeLessThan(0.5);
    }
  });

  it('says why a measurement at another phase is not taken, and the mean is measured as the mean', () => {
    const [mean] = measureSsmShapes(
      { ...input([[]]), definitions: [TAVI_MEASUREMENTS[0]!, { ...TAVI_MEASUREMENTS[0]!, phase: 'end-diastole' }] },
      context,
    );
    expect(valueOf(mean![0])).toBeGreaterThan(200);
    expect(mean![1]).toEqual({ failure: otherPhaseFailure('end-systole', 'end-diastole') });
  });
});
