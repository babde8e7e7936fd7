import { describe, expect, it } from 'vitest';
import { buildPatientMeshes, DEFAULT_POPULATION_SEED, generatePatient, type PatientMeshes } from '@insilico/anatomy';
import {
  hasImagesOf,
  measurePatient,
  PatientMeasurer,
  TAVI_MEASUREMENTS,
  unitOf,
  type MeasurementDefinition,
  type MeasurementOutcome,
} from '../src/index';

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
/** The tolerance on synthetic patients against their generator parameters: 1 %. */
const TOL = 0.01;

const valueOf = (outcome: MeasurementOutcome | undefined): number => {
  if (outcome === undefined || !('value' in outcome)) throw new Error(`no value: ${JSON.stringify(outcome)}`);
  return outcome.value;
};

describe('the SCCT TAVI set on synthetic patients', () => {
  // The first eight patients of the default population with end-systolic images (the set's phase).
  const patients = Array.from({ length: 40 }, (_, i) => generatePatient(DEFAULT_POPULATION_SEED, i * 97))
    .filter((p) => hasImagesOf(p, 'end-systole'))
    .slice(0, 8);

  it('has unique keys, a unit for every definition, and is taken at end-systole', () => {
    expect(new Set(TAVI_MEASUREMENTS.map((d) => d.key)).size).toBe(TAVI_MEASUREMENTS.length);
    for (const d of TAVI_MEASUREMENTS) {
      expect(d.phase).toBe('end-systole');
      expect(['mm', 'mm²', '°']).toContain(unitOf(d.geometry));
    }
  });

  it.each(patients.map((p) => [p.id, p] as const))(
    '%s: every measurement matches its generator parameter within 1 %',
    (_, patient) => {
      const { outcomes } = measurePatient(patient, TAVI_MEASUREMENTS);
      const v = (key: string): number => valueOf(outcomes[TAVI_MEASUREMENTS.findIndex((d) => d.key === key)]);
      const c = patient.cardiac;
      const expected: [string, number][] = [
        ['annulus-area', c.aorticAnnulusArea_mm2],
        ['annulus-perimeter', c.aorticAnnulusPerimeter_mm],
        ['annulus-min-diameter', c.aorticAnnulusMinorDiameter_mm],
        ['annulus-max-diameter', c.aorticAnnulusMajorDiameter_mm],
        ['annulus-mean-diameter', c.aorticAnnulusDiameter_mm],
        ['annulus-area-derived-diameter', 2 * Math.sqrt(c.aorticAnnulusArea_mm2 / Math.PI)],
        ['annulus-perimeter-derived-diameter', c.aorticAnnulusPerimeter_mm / Math.PI],
        ['lvot-perimeter-derived-diameter', c.lvotDiameter_mm],
        ['lvot-perimeter', Math.PI * c.lvotDiameter_mm],
        ['lvot-area', (Math.PI / 4) * c.lvotDiameter_mm ** 2],
        ['lvot-min-diameter', c.lvotDiameter_mm],
        ['lvot-max-diameter', c.lvotDiameter_mm],
        ['stj-mean-diameter', c.sinotubularJunctionDiameter_mm],
        ['stj-height', c.sinotubularJunctionHeight_mm],
        ['left-coronary-height', c.leftCoronaryHeight_mm],
        ['right-coronary-height', c.rightCoronaryHeight_mm],
        ['ascending-max-diameter', c.ascendingAortaDiameter_mm],
      ];
      for (const [key, want] of expected)
        expect({ key, error: rel(v(key), want) < TOL ? 'ok' : v(key) / want }).toEqual({ key, error: 'ok' });
      // The generator's sinus diameter is the mean of the three sinus-to-commissure chords.
      const sinus = (v('sinus-right-diameter') + v('sinus-left-diameter') + v('sinus-non-diameter')) / 3;
      expect(rel(sinus, c.sinusOfValsalvaDiameter_mm)).toBeLessThan(TOL);
      expect(v('annular-plane-angle')).toBeGreaterThan(0);
      expect(v('annular-plane-angle')).toBeLessThan(90);
    },
  );

  it('does not measure a phase the patient has no images of, and says so', () => {
    const base = patients[0]!;
    const diastoleOnly = { ...base, phases: ['end-diastole' as const] };
    const { outcomes } = measurePatient(diastoleOnly, TAVI_MEASUREMENTS);
    expect(outcomes.every((o) => 'failure' in o && o.failure === 'This patient has no end-systole images.')).toBe(true);
    const cine = { ...base, phases: ['cine_ct' as const] };
    expect(measurePatient(cine, TAVI_MEASUREMENTS).outcomes.every((o) => 'value' in o)).toBe(true);
  });

  it('is deterministic: the same patient gives the same values', () => {
    const p = patients[0]!;
    expect(measurePatient(p, TAVI_MEASUREMENTS)).toEqual(measurePatient(p, TAVI_MEASUREMENTS));
  });
});

describe('measurements on one patient: volumes, corrections, failures', () => {
  const patient = generatePatient(DEFAULT_POPULATION_SEED, 11);
  const meshes = buildPatientMeshes(patient, 'end-diastole');
  const define = (geometry: MeasurementDefinition['geometry']): MeasurementDefinition => ({
    key: 'k',
    name: 'n',
    description: '',
    phase: 'end-diastole',
    geometry,
  });

  it('the LV blood pool volume at end-diastole is the patient’s EDV within 1 %', () => {
    const v = valueOf(new PatientMeasurer(meshes).measure(define({ type: 'volume', organ: 'lv_blood_pool' })));
    expect(rel(v, patient.cardiac.lvEdv_mL)).toBeLessThan(TOL);
  });

  it('a corrected annular plane replaces the automatic one; a tilted plane gives a larger annulus', () => {
    const annulus = meshes.landmarks.find((l) => l.name === 'aortic_annulus')!;
    const area = define({
      type: 'section',
      organ: 'aortic_root',
      plane: { kind: 'landmark', landmark: 'aortic_annulus' },
      quantity: 'area',
    });
    const height = define({
      type: 'height',
      point: { landmark: 'left_coronary_ostium' },
      plane: { kind: 'landmark', landmark: 'aortic_annulus' },
    });
    const automatic = new PatientMeasurer(meshes);
    const raised = new PatientMeasurer(meshes, {
      aortic_annulus: {
        position: annulus.position.map((x, i) => x + 2 * annulus.normal![i]!) as [number, number, number],
      },
    });
    expect(valueOf(raised.measure(height))).toBeCloseTo(valueOf(automatic.measure(height)) - 2, 9);
    const n = annulus.normal!;
    const a = annulus.axis!;
    const tilted = new PatientMeasurer(meshes, {
      aortic_annulus: { position: annulus.position, normal: [n[0] + 0.2 * a[0], n[1] + 0.2 * a[1], n[2] + 0.2 * a[2]] },
    });
    expect(valueOf(tilted.measure(area))).toBeGreaterThan(valueOf(automatic.measure(area)));
  });

  it('says why a measurement fails: a missing landmark, a point used as a plane, collinear points, a plane off the organ', () => {
    const without: PatientMeshes = {
      ...meshes,
      landmarks: meshes.landmarks.filter((l) => l.name !== 'left_coronary_ostium'),
    };
    const m = new PatientMeasurer(without);
    const plane = { kind: 'landmark', landmark: 'aortic_annulus' } as const;
    expect(m.measure(define({ type: 'height', point: { landmark: 'left_coronary_ostium' }, plane }))).toEqual({
      failure: 'The anatomy has no left coronary ostium landmark.',
    });
    expect(
      m.measure(
        define({
          type: 'section',
          organ: 'aortic_root',
          plane: { kind: 'landmark', landmark: 'lv_apex' },
          quantity: 'area',
        }),
      ),
    ).toEqual({ failure: 'The lv apex landmark is a point, not a plane.' });
    const p = { position: [1, 2, 3] as const };
    expect(
      m.measure(
        define({
          type: 'section',
          organ: 'aortic_root',
          plane: { kind: 'three-points', points: [p, p, { landmark: 'lv_apex' }] },
          quantity: 'area',
        }),
      ),
    ).toEqual({
      failure:
        'The three points of the plane lie within 2 mm of one line here (the middle one is 0.0 mm from the line ' +
        'through the other two), so they do not define a plane.',
    });
    expect(
      m.measure(
        define({
          type: 'section',
          organ: 'aortic_root',
          plane: { kind: 'landmark', landmark: 'aortic_annulus', offset_mm: 500 },
          quantity: 'perimeter',
        }),
      ),
    ).toEqual({ failure: 'The plane does not cut the aortic root.' });
    expect(m.measure(define({ type: 'angle', vertex: p, from: p, to: { landmark: 'lv_apex' } }))).toEqual({
      failure: 'Two points of the angle coincide.',
    });
  });
});
