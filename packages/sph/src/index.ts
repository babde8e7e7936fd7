export { CaseError, caseSchema, parseCase, type SphCase } from './caseFile';
export { CaseSimulation, buildCase, runCase, type RunCaseOptions } from './caseRunner';
export { CellLinkedList, type Domain } from './cellList';
export { frameToCsv, frameToVtp } from './exporters';
export { packArrays, readCheckpoint, unpackArrays, writeCheckpoint, type PackedArray } from './checkpoint';
export {
  cantileverPeriod,
  oscillatingBeam,
  type OscillatingBeam,
  type OscillatingBeamOptions,
  damBreak,
  damBreak3d,
  hydrostaticTank,
  poiseuilleChannel,
  type DamBreakOptions,
  type HydrostaticTankOptions,
  type PoiseuilleOptions,
} from './cases';
export {
  WeaklyCompressibleFluid,
  resolvePairPrecision,
  type AdvectionHooks,
  type FluidCounters,
  type FluidOptions,
  type PrescribedWallMotion,
  type RunOptions,
  type RunStatus,
} from './fluid';
export { FLUID_BACKENDS, resolveBackend, type FluidBackend } from './wasmKernels';
export {
  ball,
  box,
  boxContainerWall,
  channelWalls,
  countLatticePoints,
  forEachLatticePoint,
  particlesFromShape,
  subtract,
  union,
  type Shape,
} from './geometry';
export { WendlandC2, smoothingLength } from './kernel';
export {
  ElasticMaterial,
  vonMisesStrain,
  vonMisesStress,
  type ElasticMaterialOptions,
  type ElasticModel,
} from './material';
export { MARTIN_MOYCE, martinMoyceFront, type FrontPoint } from './martinMoyce';
export { meshShape, type MeshShape, type MeshShapeOptions } from './meshShape';
export { NeighbourList, buildNeighbours, type PairArray, type PairPrecision } from './neighbours';
export {
  buildManifest,
  encodeFrame,
  fluidOutput,
  frameLayout,
  readColumn,
  type ColumnInfo,
  type ColumnType,
  type Frame,
  type Manifest,
  type ObjectKind,
  type OutputSource,
} from './output';
export { DEFAULT_RELAXATION_STEPS, relaxParticles, type RelaxationOptions, type RelaxationResult } from './relaxation';
export { runAsync, type Steppable } from './run';
export { ElasticSolid, startSolidThreads, type SolidCounters, type SolidOptions } from './solid';
export { pairGradients, type GradientOrder, type PairGradients } from './solidGradient';
export { FluidStructureInteraction, type FsiCounters } from './fsi';
export {
  ContactPair,
  ContactSimulation,
  elasticContactBody,
  rigidContactBody,
  tractionPressure,
  type ContactBody,
  type ContactCounters,
  type ContactPairOptions,
  type ContactSpec,
} from './contact';
export {
  DeviceExpansion,
  cylinderWall,
  ringParticles,
  type DeviceAxis,
  type DeviceExpansionOptions,
  type ExpansionRecord,
} from './expansion';
export {
  hertzCylinder,
  hertzLineContact,
  measureHertz,
  type HertzCylinderCase,
  type HertzCylinderOptions,
  type HertzMeasurement,
} from './hertz';
export {
  ringInTube,
  ringInTubeReference,
  torusParticles,
  type RingInTubeOptions,
  type RingInTubeResult,
} from './ringContact';
export { ParticleTracker, type DragLaw, type TrackingOptions } from './tracking';
export {
  UNITS_BY_KIND,
  outputLabel,
  outputLabelWithUnit,
  outputUnit,
  siToUnitFactor,
  type UnitSystem,
} from './outputLabels';
export { ParticleArrays, sharedFloat64, sharedInt32, type Dimension } from './particles';
export {
  hydrostaticProfile,
  connectedFront,
  kineticEnergy,
  numberDensityErrors,
  poiseuilleProfile,
  probePressure,
  surgeFront,
} from './verification';
export {
  OpenBoundaryFluid,
  checkWaveform,
  waveformMinimum,
  planeFlowRate,
  waveformValue,
  type InletProfile,
  type MassBalance,
  type PressureOutletOptions,
  type VelocityInletOptions,
  type Waveform,
} from './openBoundary';
export {
  hagenPoiseuilleTube,
  openPoiseuilleChannel,
  pipeFlowStats,
  type OpenPipe,
  type OpenPipeOptions,
  type PipeFlowStats,
} from './openCases';
export {
  BLOOD_CARREAU,
  BLOOD_NEWTONIAN,
  apparentViscosity,
  checkViscosityModel,
  type CarreauYasuda,
  type ViscosityModel,
} from './viscosity';
export {
  openVessel,
  vesselFromMesh,
  vesselShell,
  type Vessel,
  type VesselFlowOptions,
  type VesselInlet,
  type VesselOptions,
  type VesselOutlet,
  type VesselShellOptions,
} from './vessel';
export { MovingWall, type WallMotionOptions } from './movingWall';
export { heartCycleMotion, triangleNormal, type HeartCycleTiming } from './movingWall';
export { PeriodicFrames, type FrameInterpolation, type FrameSequence } from './periodicFrames';
export {
  DERIVED_OUTPUTS,
  FluidAge,
  captureSummary,
  meanPressure,
  planeIntegral,
  pressureDrop,
  volumeFlowRate,
  vorticity,
  wallShearStress,
  type CaptureSummary,
  type FieldOptions,
  type PlaneSection,
  type WallShearStress,
} from './derived';
export { wallViscousTraction } from './wallTraction';
export { GpuFluid, type GpuCounters } from './gpuFluid';
export { GpuUnavailableError, openGpu, type GpuContext } from './gpuDevice';
