// @insilico/anatomy — synthetic virtual population (parameters) and the cohort-criteria logic.
// Meshes (issue 4 item 2): closed heart and thorax meshes per patient and phase, derived from SyntheticPatient.cardiac
// and meshSeed (src/meshes).

export {
  CRITERIA_KEYS,
  OPTION_STATUSES,
  BODY_PART_OPTIONS,
  DEFAULT_BODY_PART,
  SEX_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_MODES,
  AGE_GROUP_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  COHORT_SIZES,
  BODY_DIMENSION_RANGES,
  BODY_DIMENSIONS,
  isEnabledOption,
  enabledKeys,
  type CriterionOption,
  type CriteriaKey,
  type OptionStatus,
  type BodyPart,
  type Sex,
  type OriginLocation,
  type OriginEthnicity,
  type OriginMode,
  type AgeGroup,
  type Pathology,
  type Phase,
  type CohortSize,
  type RangeDomain,
  type BodyDimension,
} from './criteria/enumerations';
export type { CohortCriteria, NumericRange } from './criteria/types';
export { createDefaultCriteria } from './criteria/defaults';
export {
  nextPathologyStatus,
  cyclePathology,
  requestNewPathology,
  removeNewPathology,
  normalizeNewPathologyName,
  NEW_PATHOLOGY_MAX_LENGTH,
  toggleSex,
  toggleAgeGroup,
  togglePhase,
  setOriginMode,
  toggleOrigin,
  snapToDomain,
  setBodyDimensionRange,
} from './criteria/toggle';
export {
  validateCriteria,
  normalizeCriteria,
  CriteriaError,
  type CriteriaIssue,
  type CriteriaIssueCode,
} from './criteria/validate';
export { describeCriteria, summarizeCriteria, type CriteriaSummaryPart } from './criteria/summary';
export { compileCriteria, matchPatients, countMatches, bodyDimensionOf, type PatientPredicate } from './criteria/match';
export { drawStratifiedSample, allocateProportionally, stratumOf, InsufficientMatchesError } from './criteria/sample';

export type { SyntheticPatient, SyntheticPopulation, BodySize, CardiacParameters } from './population/types';
export {
  generatePopulation,
  generatePatient,
  serializePopulation,
  patientId,
  parsePatientId,
  defaultPopulation,
  covariatesOf,
  MODEL_VERSION,
  DEFAULT_POPULATION_SEED,
  DEFAULT_POPULATION_SIZE,
  type PopulationOptions,
} from './population/generate';
export { PARAMETER_DEFINITIONS, type ParameterDefinition } from './population/parameters';

export {
  MODEL_VERSIONS,
  cardiacModel,
  isModelVersion,
  residualCorrelation,
  type CardiacModel,
  type ModelVersion,
} from './model/populationModels';
export {
  PRIMARY_PARAMETERS,
  REFERENCE_BSA_M2,
  LV_HYPERTROPHY_THRESHOLD_G_M2,
  AS_HYPERTROPHY_PROBABILITY,
  primaryMoments,
  type PrimaryParameter,
  type PrimaryParameterModel,
  type CardiacCovariates,
} from './model/cardiac';
export {
  ANTHROPOMETRY,
  BODY_SIZE_GROUPS,
  bsaDuBois_m2,
  bsaMosteller_m2,
  bmi_kg_m2,
  type BodySizeGroup,
} from './model/bodySize';
export { PATHOLOGY_PREVALENCE, type PathologyFlags } from './model/pathology';
export { ellipseArea_mm2, ellipsePerimeter_mm } from './model/geometry';
export { Xoshiro128 } from './random/xoshiro128';
export { seedFromString, deriveSeed, mix32 } from './random/seed';

export {
  buildPatientMeshes,
  heartTransformOf,
  MESH_MODEL_VERSION,
  type OrganMesh,
  type PatientMeshes,
} from './meshes/buildPatientMeshes';
export {
  CINE_FRAME_COUNT,
  cineFrames,
  contractionOf,
  phaseLabel,
  toMeshPhase,
  type MeshPhase,
  type MeshPhaseInput,
} from './meshes/phase';
export { ORGANS, RIB_COUNT, expectedEulerCharacteristic, type Organ } from './meshes/organs';
export { LANDMARKS, type Landmark, type LandmarkName } from './meshes/landmarks';
export {
  meshTargets,
  LA_MIN_FRACTION,
  RA_MIN_FRACTION,
  MYOCARDIAL_DENSITY_G_ML,
  type MeshMeasurements,
} from './meshes/targets';
export { measurePatientMeshes, organMesh, landmarkOf } from './meshes/measure';
export { organStl, organStlFileName, patientGlb } from './meshes/serialize';
