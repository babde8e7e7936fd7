import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AGE_GROUP_OPTIONS,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  enabledKeys,
} from '../criteria/enumerations';
import { ellipseArea_mm2, ellipsePerimeter_mm } from '../model/geometry';
import { bsaDuBois_m2, bsaMosteller_m2 } from '../model/bodySize';
import { MODEL_VERSIONS, type ModelVersion } from '../model/populationModels';
import {
  DEFAULT_POPULATION_SIZE,
  MODEL_VERSION,
  SINUS_MARGIN_MM,
  defaultPopulation,
  generatePatient,
  generatePopulation,
  parsePatientId,
  patientId,
  serializePopulation,
} from './generate';
import { PARAMETER_DEFINITIONS } from './parameters';
import type { SyntheticPatient } from './types';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const population = generatePopulation({ seed: 20240401, count: 20_000 });
const patients = population.patients;
const has = (p: SyntheticPatient, key: SyntheticPatient['pathologies'][number]): boolean => p.pathologies.includes(key);
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('determinism', () => {
  it('gives byte-identical output for the same seed', () => {
    const a = serializePopulation(generatePopulation({ seed: 99, count: 500 }));
    const b = serializePopulation(generatePopulation({ seed: 99, count: 500 }));
    expect(sha256(a)).toBe(sha256(b));
    expect(sha256(serializePopulation(generatePopulation({ seed: 100, count: 500 })))).not.toBe(sha256(a));
  });

  // One recorded hash per version, never updated: a version, once released, generates the same bytes for ever
  // (cohorts ordered before records were stored are regenerated from it). A model change is a new version.
  it.each(Object.entries(GOLDEN_DEFAULT_SHA256))(
    'reproduces the recorded hash of the default database under %s (same on every machine with Node 20)',
    (modelVersion, golden) => {
      const population = generatePopulation({ modelVersion });
      expect(population.patients).toHaveLength(DEFAULT_POPULATION_SIZE);
      expect(population.modelVersion).toBe(modelVersion);
      expect(sha256(serializePopulation(population))).toBe(golden);
    },
  );

  it('records a hash for every version and uses the newest for new populations', () => {
    expect(Object.keys(GOLDEN_DEFAULT_SHA256)).toEqual([...MODEL_VERSIONS]);
    expect(MODEL_VERSION).toBe('anatomy-population-2');
    expect(generatePopulation({ count: 1 }).modelVersion).toBe(MODEL_VERSION);
    expect(() => generatePopulation({ count: 1, modelVersion: 'anatomy-population-0' })).toThrow(RangeError);
    expect(() => generatePatient(1, 0, 'anatomy-population-0')).toThrow(RangeError);
  });

  it('moves only the aortic root from v1 to v2: same draws, same everything else', () => {
    const root = new Set([
      'sinusOfValsalvaDiameter_mm',
      'sinotubularJunctionDiameter_mm',
      'sinotubularJunctionHeight_mm',
      'ascendingAortaDiameter_mm',
      'leftCoronaryHeight_mm',
      'rightCoronaryHeight_mm',
    ]);
    const moved = new Set<string>();
    for (let i = 0; i < 500; i += 1) {
      const v1 = generatePatient(11, i, 'anatomy-population-1');
      const v2 = generatePatient(11, i, 'anatomy-population-2');
      const { cardiac: c1, ...rest1 } = v1;
      const { cardiac: c2, ...rest2 } = v2;
      expect(JSON.stringify(rest2)).toBe(JSON.stringify(rest1));
      for (const [key, value] of Object.entries(c1)) if (c2[key as keyof typeof c2] !== value) moved.add(key);
    }
    expect([...moved].filter((key) => !root.has(key))).toEqual([]);
    expect(moved.has('sinusOfValsalvaDiameter_mm')).toBe(true);
  });

  it('makes patient i independent of the population size', () => {
    const small = generatePopulation({ seed: 5, count: 10 });
    expect(JSON.stringify(small.patients[7])).toBe(JSON.stringify(generatePatient(5, 7)));
    expect(JSON.stringify(generatePopulation({ seed: 5, count: 300 }).patients.slice(0, 10))).toBe(
      JSON.stringify(small.patients),
    );
  });

  it('rejects bad sizes', () => {
    expect(() => generatePopulation({ count: 0 })).toThrow(RangeError);
    expect(() => generatePopulation({ count: 1.5 })).toThrow(RangeError);
  });
});

describe('patient records', () => {
  it('have stable ids, the synthetic label and only enabled options', () => {
    expect(patientId(122)).toBe('SYN-000123');
    const locations = enabledKeys(ORIGIN_LOCATION_OPTIONS);
    const ethnicities = enabledKeys(ORIGIN_ETHNICITY_OPTIONS);
    const ageGroups = enabledKeys(AGE_GROUP_OPTIONS);
    const pathologies = PATHOLOGY_OPTIONS.map((o) => o.key);
    const phaseOrder = PHASE_OPTIONS.map((o) => o.key);
    const problems: string[] = [];
    for (const [i, p] of patients.entries()) {
      if (p.id !== patientId(i) || p.index !== i || p.synthetic !== true) problems.push(`${p.id}: id`);
      if (!locations.includes(p.originLocation) || !ethnicities.includes(p.originEthnicity))
        problems.push(`${p.id}: origin`);
      if (p.age_years < 18 || p.age_years > 90 || !Number.isInteger(p.age_years)) problems.push(`${p.id}: age`);
      if (!p.ageGroups.every((g) => ageGroups.includes(g)) || p.ageGroups.length === 0)
        problems.push(`${p.id}: age group`);
      if (
        p.ageGroups.includes('adult') !== p.age_years <= 75 ||
        p.ageGroups.includes('geriatric') !== p.age_years >= 65
      )
        problems.push(`${p.id}: age group bounds`);
      if (!p.pathologies.every((k) => pathologies.includes(k))) problems.push(`${p.id}: pathology`);
      const order = p.phases.map((phase) => phaseOrder.indexOf(phase));
      if (order.length === 0 || order.some((k, j) => k < 0 || (j > 0 && k <= (order[j - 1] ?? -1))))
        problems.push(`${p.id}: phases`);
      if (p.phases.includes('cine_ct') && !(p.phases.includes('end-systole') && p.phases.includes('end-diastole')))
        problems.push(`${p.id}: cine without static phases`);
      if (!Number.isInteger(p.meshSeed) || p.meshSeed < 0 || p.meshSeed >= 2 ** 32) problems.push(`${p.id}: meshSeed`);
      for (const d of PARAMETER_DEFINITIONS) {
        const value =
          d.group === 'body'
            ? p.body[d.key as keyof SyntheticPatient['body']]
            : p.cardiac[d.key as keyof SyntheticPatient['cardiac']];
        if (!(typeof value === 'number' && Number.isFinite(value) && value > 0))
          problems.push(`${p.id}: ${d.key}=${String(value)}`);
      }
    }
    expect(problems).toEqual([]);
    // Both sexes, every enabled location and ethnicity, both age groups and the overlap occur.
    expect(new Set(patients.map((p) => p.sex)).size).toBe(2);
    expect(new Set(patients.map((p) => p.originLocation)).size).toBe(3);
    expect(new Set(patients.map((p) => p.originEthnicity)).size).toBe(2);
    expect(patients.some((p) => p.ageGroups.length === 2)).toBe(true);
    expect(patients.some((p) => p.pathologies.length === 0)).toBe(true);
    expect(patients.some((p) => p.pathologies.length >= 2)).toBe(true);
  });

  it('keeps derived quantities consistent', () => {
    let worst = 0;
    const rel = (a: number, b: number): void => {
      worst = Math.max(worst, Math.abs(a - b) / Math.abs(b));
    };
    for (const { body, cardiac: c } of patients) {
      rel(body.bmi_kg_m2, body.weight_kg / (body.height_cm / 100) ** 2);
      rel(body.bsaDuBois_m2, bsaDuBois_m2(body.weight_kg, body.height_cm));
      rel(body.bsaMosteller_m2, bsaMosteller_m2(body.weight_kg, body.height_cm));
      rel((c.aorticAnnulusMajorDiameter_mm + c.aorticAnnulusMinorDiameter_mm) / 2, c.aorticAnnulusDiameter_mm);
      rel(c.aorticAnnulusArea_mm2, ellipseArea_mm2(c.aorticAnnulusMajorDiameter_mm, c.aorticAnnulusMinorDiameter_mm));
      rel(
        c.aorticAnnulusPerimeter_mm,
        ellipsePerimeter_mm(c.aorticAnnulusMajorDiameter_mm, c.aorticAnnulusMinorDiameter_mm),
      );
      rel(c.mitralAnnulusArea_mm2, ellipseArea_mm2(c.mitralAnnulusApDiameter_mm, c.mitralAnnulusIcDiameter_mm));
      rel(c.lvEf_percent, ((c.lvEdv_mL - c.lvEsv_mL) / c.lvEdv_mL) * 100);
      rel(c.rvEf_percent, ((c.rvEdv_mL - c.rvEsv_mL) / c.rvEdv_mL) * 100);
    }
    expect(worst).toBeLessThan(1e-9);
    const ordered = patients.every(
      ({ cardiac: c }) =>
        c.aorticAnnulusMajorDiameter_mm >= c.aorticAnnulusMinorDiameter_mm &&
        c.lvEsv_mL < c.lvEdv_mL &&
        c.sinotubularJunctionHeight_mm > Math.max(c.leftCoronaryHeight_mm, c.rightCoronaryHeight_mm) &&
        c.sinotubularJunctionDiameter_mm <= c.sinusOfValsalvaDiameter_mm - SINUS_MARGIN_MM + 1e-9 &&
        c.aorticAnnulusMajorDiameter_mm <= c.sinusOfValsalvaDiameter_mm - SINUS_MARGIN_MM + 1e-9,
    );
    expect(ordered).toBe(true);
  });
});

describe('pathology effects', () => {
  const healthy = patients.filter((p) => p.pathologies.length === 0);
  const index = (p: SyntheticPatient, value: number): number => value / p.body.bsaDuBois_m2;

  it('severe aortic stenosis: valve area < 1.0 cm², LV hypertrophy in about 70 %', () => {
    const as = patients.filter((p) => has(p, 'aortic_valve_insufficiency_stenosis'));
    expect(as.length).toBeGreaterThan(500);
    expect(as.every((p) => p.cardiac.aorticValveArea_cm2 < 1.0)).toBe(true);
    expect(healthy.every((p) => p.cardiac.aorticValveArea_cm2 >= 2.0)).toBe(true);
    const lvh = as.filter((p) => p.cardiac.lvHypertrophy).length / as.length;
    expect(lvh).toBeGreaterThan(0.64);
    expect(lvh).toBeLessThan(0.76);
    expect(healthy.filter((p) => p.cardiac.lvHypertrophy).length / healthy.length).toBeLessThan(0.05);
  });

  it('mitral regurgitation: annulus area index ≈ 6–7 vs ≈ 4.7 cm²/m²', () => {
    const mr = patients.filter((p) => has(p, 'mitral_valve_insufficiency') && !has(p, 'heart_failure'));
    const mrIndex = mean(mr.map((p) => index(p, p.cardiac.mitralAnnulusArea_mm2 / 100)));
    const normalIndex = mean(healthy.map((p) => index(p, p.cardiac.mitralAnnulusArea_mm2 / 100)));
    expect(mrIndex).toBeGreaterThan(6);
    expect(mrIndex).toBeLessThan(7);
    expect(normalIndex).toBeGreaterThan(4.4);
    expect(normalIndex).toBeLessThan(5.0);
  });

  it('heart failure with reduced EF: LVEF ≤ 40 % and a dilated LV; others > 40 %', () => {
    const hf = patients.filter((p) => has(p, 'heart_failure'));
    expect(hf.every((p) => p.cardiac.lvEf_percent <= 40)).toBe(true);
    expect(patients.filter((p) => !has(p, 'heart_failure')).every((p) => p.cardiac.lvEf_percent > 40)).toBe(true);
    const hfEdvi = mean(hf.map((p) => index(p, p.cardiac.lvEdv_mL)));
    const normalEdvi = mean(healthy.map((p) => index(p, p.cardiac.lvEdv_mL)));
    expect(hfEdvi).toBeGreaterThan(normalEdvi + 25);
  });

  it('tricuspid regurgitation: annulus ≥ 40 mm or > 21 mm/m²', () => {
    const tr = patients.filter((p) => has(p, 'tricuspid_valve_insufficiency'));
    expect(tr.length).toBeGreaterThan(300);
    const ok = (p: SyntheticPatient): boolean =>
      p.cardiac.tricuspidAnnulusDiameter_mm >= 40 || index(p, p.cardiac.tricuspidAnnulusDiameter_mm) > 21;
    expect(tr.every(ok)).toBe(true);
  });

  it('pulmonary valve insufficiency: enlarged RV', () => {
    const pr = patients.filter((p) => has(p, 'pulmonary_valve_insufficiency') && p.pathologies.length === 1);
    expect(mean(pr.map((p) => index(p, p.cardiac.rvEdv_mL)))).toBeGreaterThan(
      mean(healthy.map((p) => index(p, p.cardiac.rvEdv_mL))) + 35,
    );
  });

  it('asian origin: smaller body size and annulus (area ≈ 5 % smaller, cf. 406 vs 430 mm²)', () => {
    const old = patients.filter((p) => p.age_years >= 65);
    const asian = old.filter((p) => p.originEthnicity === 'asian');
    const white = old.filter((p) => p.originEthnicity === 'white');
    expect(mean(asian.map((p) => p.body.bsaDuBois_m2))).toBeLessThan(mean(white.map((p) => p.body.bsaDuBois_m2)));
    const ratio =
      mean(asian.map((p) => p.cardiac.aorticAnnulusArea_mm2)) / mean(white.map((p) => p.cardiac.aorticAnnulusArea_mm2));
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(0.98);
  });
});

const GOLDEN_DEFAULT_SHA256: Readonly<Record<ModelVersion, string>> = {
  'anatomy-population-1': '3564baeef8302bf9d6b6b931ad60a58276e0b5793b108b670baaf64f3d8f3a8a',
  'anatomy-population-2': '614f1dd34f6d3a53a14ebc5d51e6cd639b3b7544b68b541add58f28a789f74d9',
};

describe('ids and the default database', () => {
  it('parses ids back to indices and caches the default database', () => {
    expect(parsePatientId('SYN-000123')).toBe(122);
    expect(parsePatientId(patientId(0))).toBe(0);
    expect(parsePatientId('SYN-000000')).toBeNull();
    expect(parsePatientId('SYN-12')).toBeNull();
    expect(parsePatientId('patient-1')).toBeNull();
    const db = defaultPopulation();
    expect(defaultPopulation()).toBe(db);
    expect(defaultPopulation(MODEL_VERSION)).toBe(db);
    expect(db.patients).toHaveLength(DEFAULT_POPULATION_SIZE);
    expect(JSON.stringify(db.patients[122])).toBe(JSON.stringify(generatePatient(db.seed, 122)));
    const v1 = defaultPopulation('anatomy-population-1');
    expect(v1.modelVersion).toBe('anatomy-population-1');
    expect(JSON.stringify(v1.patients[122])).toBe(
      JSON.stringify(generatePatient(db.seed, 122, 'anatomy-population-1')),
    );
  });
});
