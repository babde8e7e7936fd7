import type { OriginEthnicity, OriginLocation, Phase } from '../criteria/enumerations';
import {
  ANTHROPOMETRY,
  BODY_SIZE_BOUNDS,
  bmi_kg_m2,
  bsaDuBois_m2,
  bsaMosteller_m2,
  logNormalParameters,
} from '../model/bodySize';
import {
  AS_HYPERTROPHY_PROBABILITY,
  LV_HYPERTROPHY_THRESHOLD_G_M2,
  PRIMARY_COUNT,
  type CardiacCovariates,
} from '../model/cardiac';
import { MODEL_VERSION, cardiacModel, type ModelVersion } from '../model/populationModels';
import {
  AGE_BANDS,
  ASIAN_PROBABILITY_BY_LOCATION,
  LOCATION_PROBABILITIES,
  PHASE_SETS,
  ageGroupsOf,
  bodySizeGroup,
  pickCategory,
  sexFromUniform,
} from '../model/demographics';
import { ellipseArea_mm2, ellipseDiameters_mm, ellipsePerimeter_mm } from '../model/geometry';
import { multiplyLower } from '../model/linalg';
import { pathologyKeys, samplePathologies } from '../model/pathology';
import { deriveSeed } from '../random/seed';
import { Xoshiro128 } from '../random/xoshiro128';
import type { BodySize, CardiacParameters, SyntheticPatient, SyntheticPopulation } from './types';

// MODEL_VERSION (model/populationModels.ts) names the model new populations use; add a version, never change one.
export { MODEL_VERSION };
/** Default population seed of the built-in database. */
export const DEFAULT_POPULATION_SEED = 20240401;
/** Default number of patients of the built-in database. */
export const DEFAULT_POPULATION_SIZE = 2000;

/** Random stream of the patient parameters. */
const STREAM_PARAMETERS = 1;
/** Random stream reserved for a patient's meshes. */
const STREAM_MESH = 2;

const LOCATION_WEIGHTS = LOCATION_PROBABILITIES.map((entry) => entry.probability);
const AGE_BAND_WEIGHTS = AGE_BANDS.map((band) => band.probability);
const PHASE_SET_WEIGHTS = PHASE_SETS.map((set) => set.probability);

// Scratch buffers (single-threaded; no allocation per draw).
const independent = new Float64Array(PRIMARY_COUNT);
const correlated = new Float64Array(PRIMARY_COUNT);
const values = new Float64Array(PRIMARY_COUNT);
const pathologyUniforms = new Float64Array(5);
const ellipse = new Float64Array(2);

/** Stable id of the patient with 0-based `index`: `SYN-` and the 1-based number on six digits. */
export function patientId(index: number): string {
  return `SYN-${String(index + 1).padStart(6, '0')}`;
}

/** The 0-based index of a synthetic patient id (`SYN-000123` → 122), or null if `id` is not one. */
export function parsePatientId(id: string): number | null {
  const match = /^SYN-(\d{6})$/.exec(id);
  if (match === null) return null;
  const number = Number(match[1]);
  return number >= 1 ? number - 1 : null;
}

const clamp = (value: number, lo: number, hi: number): number => (value < lo ? lo : value > hi ? hi : value);

/**
 * Generates patient `index` of the population with `seed` (unsigned 32-bit) under population model
 * `modelVersion` (default MODEL_VERSION; RangeError for one this code does not produce). Patient i depends only
 * on (seed, i, modelVersion), not on the population size; every version consumes the same draws.
 */
export function generatePatient(seed: number, index: number, modelVersion: string = MODEL_VERSION): SyntheticPatient {
  if (!Number.isInteger(index) || index < 0 || index > 999_998)
    throw new RangeError(`patient index out of range: ${index}`);
  const { primaryModels, cholesky } = cardiacModel(modelVersion);
  const rng = new Xoshiro128(deriveSeed(seed, STREAM_PARAMETERS, index));

  // Demographics.
  const sex = sexFromUniform(rng.nextFloat());
  const band = AGE_BANDS[pickCategory(AGE_BAND_WEIGHTS, rng.nextFloat())] ?? AGE_BANDS[0];
  const age_years = band.minAge_years + rng.nextInt(band.maxAge_years - band.minAge_years + 1);
  const location: OriginLocation = (
    LOCATION_PROBABILITIES[pickCategory(LOCATION_WEIGHTS, rng.nextFloat())] ?? LOCATION_PROBABILITIES[0]
  ).key;
  const ethnicity: OriginEthnicity = rng.nextFloat() < ASIAN_PROBABILITY_BY_LOCATION[location] ? 'asian' : 'white';

  // Body size: height normal, BMI log-normal, independent given sex and group.
  const reference = ANTHROPOMETRY[bodySizeGroup(location, ethnicity)][sex];
  const height_cm = clamp(
    reference.heightMean_cm + reference.heightSd_cm * rng.nextNormal(),
    BODY_SIZE_BOUNDS.height_cm.min,
    BODY_SIZE_BOUNDS.height_cm.max,
  );
  const logBmi = logNormalParameters(reference.bmiMean_kg_m2, reference.bmiCv);
  const bmiDrawn = clamp(
    Math.exp(logBmi.mu + logBmi.sigma * rng.nextNormal()),
    BODY_SIZE_BOUNDS.bmi_kg_m2.min,
    BODY_SIZE_BOUNDS.bmi_kg_m2.max,
  );
  const h_m = height_cm / 100;
  const weight_kg = bmiDrawn * h_m * h_m;
  const bsa = bsaDuBois_m2(weight_kg, height_cm);
  const body: BodySize = {
    height_cm,
    weight_kg,
    bmi_kg_m2: bmi_kg_m2(weight_kg, height_cm),
    bsaDuBois_m2: bsa,
    bsaMosteller_m2: bsaMosteller_m2(weight_kg, height_cm),
  };

  // Pathologies (always five uniforms, then the latent AS hypertrophy).
  for (let i = 0; i < 5; i += 1) pathologyUniforms[i] = rng.nextFloat();
  const pathology = samplePathologies(age_years, pathologyUniforms);
  const hypertrophyDraw = rng.nextFloat();
  const covariates: CardiacCovariates = {
    sex,
    age_years,
    bsa_m2: bsa,
    pathology,
    asHypertrophy: pathology.aorticStenosis && hypertrophyDraw < AS_HYPERTROPHY_PROBABILITY,
  };

  // Phases available.
  const phases: readonly Phase[] = (PHASE_SETS[pickCategory(PHASE_SET_WEIGHTS, rng.nextFloat())] ?? PHASE_SETS[0])
    .phases;

  // Correlated residuals z = L·e and the primary parameters.
  rng.fillNormal(independent);
  multiplyLower(cholesky, independent, PRIMARY_COUNT, correlated);
  for (let p = 0; p < PRIMARY_COUNT; p += 1) {
    const model = primaryModels[p];
    if (model === undefined) throw new Error('cardiac model incomplete');
    const [lo, hi] = model.bounds(covariates);
    const value = clamp(model.center(covariates) + model.sd(covariates) * (correlated[p] ?? 0), lo, hi);
    values[p] = model.indexedByBsa ? value * bsa : value;
  }
  const cardiac = deriveCardiac(values, covariates);

  return {
    id: patientId(index),
    synthetic: true,
    index,
    sex,
    age_years,
    ageGroups: ageGroupsOf(age_years),
    originLocation: location,
    originEthnicity: ethnicity,
    body,
    pathologies: pathologyKeys(pathology),
    phases: [...phases],
    cardiac,
    meshSeed: deriveSeed(seed, STREAM_MESH, index),
  };
}

/** Element i of a scratch vector (NaN if out of range, which would surface in the tests). */
function at(v: Float64Array, i: number): number {
  return v[i] ?? Number.NaN;
}

/** Minimum margin of the sinus of Valsalva over the annulus major diameter and over the STJ diameter, mm. */
export const SINUS_MARGIN_MM = 2;

/** Builds the reported parameters from the primary values (PRIMARY_PARAMETERS order, indexed ones × BSA). */
function deriveCardiac(v: Float64Array, x: CardiacCovariates): CardiacParameters {
  const annulus = at(v, 0);
  ellipseDiameters_mm(annulus, at(v, 7), ellipse);
  const major = ellipse[0] ?? Number.NaN;
  const minor = ellipse[1] ?? Number.NaN;
  // Geometric guards for the aortic root mesh: the sinus bulges beyond the annulus and the STJ (≈ 0.3 % of patients).
  const sinus = Math.max(at(v, 2), major + SINUS_MARGIN_MM);
  const stj = Math.min(at(v, 3), sinus - SINUS_MARGIN_MM);
  const lvEdv = at(v, 8);
  const lvEf = at(v, 9);
  const lvMass = at(v, 10);
  const mitralAp = at(v, 12);
  const mitralIc = at(v, 13);
  const rvEdv = at(v, 14);
  const rvEf = at(v, 15);
  return {
    aorticAnnulusDiameter_mm: annulus,
    aorticAnnulusMajorDiameter_mm: major,
    aorticAnnulusMinorDiameter_mm: minor,
    aorticAnnulusPerimeter_mm: ellipsePerimeter_mm(major, minor),
    aorticAnnulusArea_mm2: ellipseArea_mm2(major, minor),
    aorticValveArea_cm2: at(v, 19),
    lvotDiameter_mm: at(v, 1),
    sinusOfValsalvaDiameter_mm: sinus,
    sinotubularJunctionDiameter_mm: stj,
    sinotubularJunctionHeight_mm: Math.max(at(v, 5), at(v, 6)) + at(v, 20),
    ascendingAortaDiameter_mm: at(v, 4),
    leftCoronaryHeight_mm: at(v, 5),
    rightCoronaryHeight_mm: at(v, 6),
    lvEdv_mL: lvEdv,
    lvEsv_mL: lvEdv * (1 - lvEf / 100),
    lvEf_percent: lvEf,
    lvMass_g: lvMass,
    lvHypertrophy: lvMass / x.bsa_m2 > LV_HYPERTROPHY_THRESHOLD_G_M2[x.sex],
    laVolume_mL: at(v, 11),
    raVolume_mL: at(v, 18),
    mitralAnnulusApDiameter_mm: mitralAp,
    mitralAnnulusIcDiameter_mm: mitralIc,
    mitralAnnulusArea_mm2: ellipseArea_mm2(mitralAp, mitralIc),
    tricuspidAnnulusDiameter_mm: at(v, 16),
    rvEdv_mL: rvEdv,
    rvEsv_mL: rvEdv * (1 - rvEf / 100),
    rvEf_percent: rvEf,
    mainPulmonaryArteryDiameter_mm: at(v, 17),
  };
}

/** Options of {@link generatePopulation}. */
export interface PopulationOptions {
  /** Unsigned 32-bit seed (default DEFAULT_POPULATION_SEED). */
  readonly seed?: number;
  /** Number of patients, 1–999,999 (default DEFAULT_POPULATION_SIZE = 2,000). */
  readonly count?: number;
  /** Population model version (default MODEL_VERSION); earlier versions stay producible. */
  readonly modelVersion?: string;
}

/** Generates a population of `count` synthetic patients from `seed`; identical on every machine (same Node major). */
export function generatePopulation(options: PopulationOptions = {}): SyntheticPopulation {
  const seed = (options.seed ?? DEFAULT_POPULATION_SEED) >>> 0;
  const count = options.count ?? DEFAULT_POPULATION_SIZE;
  if (!Number.isInteger(count) || count < 1 || count > 999_999)
    throw new RangeError(`population size out of range: ${count}`);
  const modelVersion = cardiacModel(options.modelVersion).version;
  const patients: SyntheticPatient[] = new Array<SyntheticPatient>(count);
  for (let i = 0; i < count; i += 1) patients[i] = generatePatient(seed, i, modelVersion);
  return { modelVersion, seed, patients };
}

const defaultPopulations = new Map<ModelVersion, SyntheticPopulation>();

/**
 * The built-in database (DEFAULT_POPULATION_SEED, DEFAULT_POPULATION_SIZE) under `modelVersion` (default
 * MODEL_VERSION), generated once per process and version and shared; treat it as read-only.
 */
export function defaultPopulation(modelVersion: string = MODEL_VERSION): SyntheticPopulation {
  const version = cardiacModel(modelVersion).version;
  let population = defaultPopulations.get(version);
  if (population === undefined) {
    population = generatePopulation({ modelVersion: version });
    defaultPopulations.set(version, population);
  }
  return population;
}

/** Canonical JSON of a population (fixed key order by construction; numbers in shortest round-trip form). */
export function serializePopulation(population: SyntheticPopulation): string {
  return JSON.stringify(population);
}

/** Recovers the covariates the cardiac model used for a patient (asHypertrophy is latent: pass it if known). */
export function covariatesOf(patient: SyntheticPatient, asHypertrophy = false): CardiacCovariates {
  const has = (key: SyntheticPatient['pathologies'][number]): boolean => patient.pathologies.includes(key);
  return {
    sex: patient.sex,
    age_years: patient.age_years,
    bsa_m2: patient.body.bsaDuBois_m2,
    pathology: {
      aorticStenosis: has('aortic_valve_insufficiency_stenosis'),
      mitralRegurgitation: has('mitral_valve_insufficiency'),
      heartFailure: has('heart_failure'),
      tricuspidRegurgitation: has('tricuspid_valve_insufficiency'),
      pulmonaryRegurgitation: has('pulmonary_valve_insufficiency'),
    },
    asHypertrophy,
  };
}
