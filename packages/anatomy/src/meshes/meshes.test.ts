import { analyseTopology, enclosedVolume_mm3, readStl } from '@insilico/mesh';
import { describe, expect, it } from 'vitest';
import { generatePatient, DEFAULT_POPULATION_SEED } from '../population/generate';
import type { SyntheticPatient } from '../population/types';
import { buildPatientMeshes } from './buildPatientMeshes';
import { LANDMARKS } from './landmarks';
import { measurePatientMeshes } from './measure';
import { ORGANS, expectedEulerCharacteristic } from './organs';
import { CINE_FRAME_COUNT, cineFrames, contractionOf, phaseLabel } from './phase';
import { organStl, patientGlb } from './serialize';
import { meshTargets } from './targets';

/** A sample across sexes and pathologies: the first patients of the default population matching each need. */
function samplePatients(): SyntheticPatient[] {
  const wanted: ((p: SyntheticPatient) => boolean)[] = [
    (p) => p.sex === 'female' && p.pathologies.length === 0,
    (p) => p.sex === 'male' && p.pathologies.length === 0,
    (p) => p.pathologies.includes('aortic_valve_insufficiency_stenosis'),
    (p) => p.pathologies.includes('heart_failure'),
    (p) => p.pathologies.includes('mitral_valve_insufficiency'),
    (p) => p.pathologies.includes('tricuspid_valve_insufficiency'),
    (p) => p.pathologies.includes('pulmonary_valve_insufficiency'),
    (p) => p.originEthnicity === 'asian' && p.sex === 'female',
    (p) => p.pathologies.length >= 2,
  ];
  const out: SyntheticPatient[] = [];
  for (const want of wanted) {
    for (let i = 0; i < 2000; i++) {
      const p = generatePatient(DEFAULT_POPULATION_SEED, i);
      if (want(p) && !out.some((q) => q.id === p.id)) {
        out.push(p);
        break;
      }
    }
  }
  return out;
}

const patients = samplePatients();

describe('patient meshes', () => {
  it('samples every group', () => {
    expect(patients.length).toBe(9);
  });

  for (const patient of patients) {
    for (const phase of ['end-diastole', 'end-systole'] as const) {
      it(`${patient.id} (${patient.sex}, ${patient.pathologies.join('+') || 'healthy'}) ${phase}: closed, oriented, within 1 %`, () => {
        const meshes = buildPatientMeshes(patient, phase);
        expect(meshes.organs.map((o) => o.organ)).toEqual([...ORGANS]);
        expect(meshes.landmarks.map((l) => l.name)).toEqual([...LANDMARKS]);
        for (const { organ, mesh } of meshes.organs) {
          const topo = analyseTopology(mesh);
          expect(topo.boundaryEdges, organ).toBe(0);
          expect(topo.nonManifoldEdges, organ).toBe(0);
          expect(topo.consistentlyOriented, organ).toBe(true);
          expect(topo.eulerCharacteristic, organ).toBe(expectedEulerCharacteristic(organ));
          expect(enclosedVolume_mm3(mesh), organ).toBeGreaterThan(0);
        }
        const measured = measurePatientMeshes(meshes);
        const target = meshTargets(patient, meshes.phase);
        for (const key of Object.keys(target) as (keyof typeof target)[]) {
          expect(Math.abs(measured[key] / target[key] - 1), key).toBeLessThan(0.01);
        }
      });
    }
  }

  it('meets every target within 1 % on a systematic sample (every 100th of the default 2,000, ED and ES)', () => {
    let worst = 0;
    for (let i = 50; i < 2000; i += 100) {
      const p = generatePatient(DEFAULT_POPULATION_SEED, i);
      for (const phase of ['end-diastole', 'end-systole'] as const) {
        const meshes = buildPatientMeshes(p, phase);
        const measured = measurePatientMeshes(meshes);
        const target = meshTargets(p, meshes.phase);
        for (const key of Object.keys(target) as (keyof typeof target)[]) {
          const error = Math.abs(measured[key] / target[key] - 1);
          expect(error, `${p.id} ${phase} ${key}`).toBeLessThan(0.01);
          worst = Math.max(worst, error);
        }
        for (const { organ, mesh } of meshes.organs) {
          expect(analyseTopology(mesh).consistentlyOriented, `${p.id} ${organ}`).toBe(true);
        }
      }
    }
    // Volumes, perimeters and the aortic diameters are exact to rounding; annulus areas and calipers of the
    // perimeter-scaled 96-gon are the largest deviations (≈ 0.04 %).
    expect(worst).toBeLessThan(0.001);
  });

  it('hits the patient parameters at ED and ES exactly where the record names them', () => {
    const p = patients[0] as SyntheticPatient;
    const ed = measurePatientMeshes(buildPatientMeshes(p, 'end-diastole'));
    const es = measurePatientMeshes(buildPatientMeshes(p, 'end-systole'));
    expect(ed.lvBloodPool_mL).toBeCloseTo(p.cardiac.lvEdv_mL, 6);
    expect(es.lvBloodPool_mL).toBeCloseTo(p.cardiac.lvEsv_mL, 6);
    expect(ed.rvBloodPool_mL).toBeCloseTo(p.cardiac.rvEdv_mL, 6);
    expect(es.rvBloodPool_mL).toBeCloseTo(p.cardiac.rvEsv_mL, 6);
    expect(es.laBloodPool_mL).toBeCloseTo(p.cardiac.laVolume_mL, 6);
    expect(es.raBloodPool_mL).toBeCloseTo(p.cardiac.raVolume_mL, 6);
    expect(ed.lvMyocardium_mL).toBeCloseTo(p.cardiac.lvMass_g / 1.05, 6);
    expect(ed.aorticAnnulusPerimeter_mm).toBeCloseTo(p.cardiac.aorticAnnulusPerimeter_mm, 9);
  });

  it('builds cine frames from ED to ES with monotone volumes', () => {
    const p = patients[3] as SyntheticPatient;
    const frames = cineFrames();
    expect(frames.length).toBe(CINE_FRAME_COUNT);
    expect(CINE_FRAME_COUNT - 2).toBeGreaterThanOrEqual(10);
    expect(contractionOf(frames[0] ?? { kind: 'end-systole' })).toBe(0);
    expect(contractionOf(frames[frames.length - 1] ?? { kind: 'end-diastole' })).toBe(1);
    let previous = Infinity;
    for (const phase of frames) {
      const meshes = buildPatientMeshes(p, phase);
      const m = measurePatientMeshes(meshes);
      const t = meshTargets(p, phase);
      for (const key of Object.keys(t) as (keyof typeof t)[]) {
        expect(Math.abs(m[key] / t[key] - 1), `${phaseLabel(phase)} ${key}`).toBeLessThan(0.01);
      }
      expect(m.lvBloodPool_mL).toBeLessThan(previous);
      previous = m.lvBloodPool_mL;
      for (const { organ, mesh } of meshes.organs) {
        const topo = analyseTopology(mesh);
        expect(topo.consistentlyOriented, organ).toBe(true);
        expect(topo.eulerCharacteristic, organ).toBe(expectedEulerCharacteristic(organ));
      }
    }
    expect(previous).toBeCloseTo(p.cardiac.lvEsv_mL, 6);
    expect(phaseLabel(frames[2] ?? { kind: 'end-systole' })).toBe('cine-03of12');
  });

  it('is deterministic: same patient and phase give byte-identical STL and GLB', () => {
    const p = patients[2] as SyntheticPatient;
    const a = buildPatientMeshes(p, 'end-systole');
    const b = buildPatientMeshes(generatePatient(DEFAULT_POPULATION_SEED, p.index), 'end-systole');
    const same = (x: Uint8Array, y: Uint8Array): boolean => Buffer.from(x).equals(Buffer.from(y));
    for (const organ of ORGANS) expect(same(organStl(a, organ), organStl(b, organ)), organ).toBe(true);
    expect(same(patientGlb(a), patientGlb(b))).toBe(true);
    const other = buildPatientMeshes(patients[3] as SyntheticPatient, 'end-systole');
    expect(same(organStl(a, 'aortic_root'), organStl(other, 'aortic_root'))).toBe(false);
    expect(a.landmarks).toEqual(b.landmarks);
  });

  it('round-trips through STL with topology and volume intact', () => {
    const meshes = buildPatientMeshes(patients[1] as SyntheticPatient, 'end-diastole');
    for (const { organ, mesh } of meshes.organs) {
      const back = readStl(organStl(meshes, organ));
      expect(back.indices.length, organ).toBe(mesh.indices.length);
      expect(analyseTopology(back).consistentlyOriented, organ).toBe(true);
      expect(Math.abs(enclosedVolume_mm3(back) / enclosedVolume_mm3(mesh) - 1), organ).toBeLessThan(1e-5);
    }
  });

  it('places landmarks: ostia at the coronary heights above the annulus plane, apex below the base', () => {
    const p = patients[0] as SyntheticPatient;
    const meshes = buildPatientMeshes(p, 'end-diastole');
    const get = (name: (typeof LANDMARKS)[number]) => meshes.landmarks.find((l) => l.name === name);
    const annulus = get('aortic_annulus');
    const n = annulus?.normal ?? [0, 0, 0];
    const c = annulus?.position ?? [0, 0, 0];
    const heightOf = (q: readonly number[]): number =>
      ((q[0] ?? 0) - c[0]) * n[0] + ((q[1] ?? 0) - c[1]) * n[1] + ((q[2] ?? 0) - c[2]) * n[2];
    expect(heightOf(get('left_coronary_ostium')?.position ?? [])).toBeCloseTo(p.cardiac.leftCoronaryHeight_mm, 9);
    expect(heightOf(get('right_coronary_ostium')?.position ?? [])).toBeCloseTo(p.cardiac.rightCoronaryHeight_mm, 9);
    const base = get('lv_base');
    const apex = get('lv_apex');
    const bn = base?.normal ?? [0, 0, 0];
    const bp = base?.position ?? [0, 0, 0];
    const ap = apex?.position ?? [0, 0, 0];
    const apexDepth = (ap[0] - bp[0]) * bn[0] + (ap[1] - bp[1]) * bn[1] + (ap[2] - bp[2]) * bn[2];
    expect(apexDepth).toBeLessThan(-50);
    // Apex points to the patient's left, anterior and inferior (LPS).
    expect(ap[0] - bp[0]).toBeGreaterThan(0);
    expect(ap[1] - bp[1]).toBeLessThan(0);
    expect(ap[2] - bp[2]).toBeLessThan(0);
  });

  it('rejects bad cine frames', () => {
    expect(() =>
      buildPatientMeshes(patients[0] as SyntheticPatient, { kind: 'cine', frame: 12, frameCount: 12 }),
    ).toThrow(RangeError);
  });
});
