// @insilico/scenarios — a room (patient anatomy at a phase, placed device versions) and a simulation kind with its
// parameters and resolution → an engine case of @insilico/sph. Pure: no files, no server (issue 16 item 2).

export {
  buildScenario,
  COARSE_FLOW_MAX_WORK,
  boundedSpacing,
  PARTICLE_CAP,
  SCENARIO_VERSION,
  ScenarioError,
  type BuiltScenario,
  type Estimate,
  type ScenarioInput,
} from './build';
export { placePoint, placedMesh, type PlacedDevice, type PlacementTransform } from './device';
export { ejectionTime, inflowOf, type Inflow } from './inflow';
export { MATERIAL_IDS, MATERIALS, materialOf, type DeviceMaterial, type MaterialId } from './materials';
export {
  DEFAULT_HEART_RATE_BPM,
  NUMERIC_PARAMETERS,
  RESOLUTIONS,
  SIMULATION_KINDS,
  defaultParameters,
  resolveParameters,
  type NumericKey,
  type NumericParameter,
  type ParameterIssue,
  type Resolution,
  type SimulationKind,
  type SimulationParameters,
} from './parameters';
export { deliveredRegion, simulatedRegion, type RegionPlane, type SimulatedRegion } from './region';
export {
  DEFAULT_STROKE_VOLUME_ML,
  isDelivered,
  sexOf,
  strokeVolumeOf,
  type DeliveredPatient,
  type ScenarioPatient,
} from './patient';
export { annulusPlacement, ringDeviceMesh } from './testDevice';
export {
  placeByRule,
  placeDeliveredByRule,
  snapTransform,
  type PlacementRule,
  type RuleLandmark,
  type RulePlacement,
} from './placementRule';
export { paravalvularGapArea, type GapInput, type GapResult } from './paravalvularGap';
export {
  FLOW_SECONDS_PER_PARTICLE_STEP,
  SPEED_OVER_REFERENCE,
  cacheGrowth,
  flowRunSeconds,
  flowSteps,
  flowWork,
  solidRunSeconds,
  threadSpeedUp,
  type EngineBackend,
  type FlowStepInput,
} from './runTime';
