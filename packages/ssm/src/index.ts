// @insilico/ssm — statistical shape models of corresponding organ meshes: correspondence, generalised Procrustes
// alignment, PCA through the Gram matrix, instances at ±k SD, and the quality measures (compactness, generalisation,
// specificity) as surface distances. Pure TypeScript on typed arrays (→ mesh for types, stats for linear algebra).

export { SsmInputError } from './errors';

/**
 * Version of the shape-model code; stored in every model card, bumped on any change that alters a model (ssm-2:
 * landmark modes; ssm-3: registration's coarse-to-fine data, continued variance and motion stop, session 18).
 */
export const SSM_CODE_VERSION = 'ssm-3';
export { correspondByTopology, type CorrespondingShapes } from './correspondence';
export {
  correspondByRegistration,
  registerOnto,
  REGISTRATION_SAMPLING,
  type RegisteredShape,
  REGISTRATION_DEFAULTS,
  type RegisteredShapes,
  type RegistrationOptions,
  type ShapeRegistration,
} from './registration';
export {
  applyTransform,
  centroid,
  centroidSize,
  generalisedProcrustes,
  optimalRotation,
  procrustesTransform,
  type ProcrustesAlignment,
  type ProcrustesOptions,
  type ProcrustesTransform,
} from './procrustes';
export {
  buildShapeModel,
  modelInstance,
  projectShape,
  type ShapeBasis,
  type ShapeModel,
  type ShapeModelOptions,
} from './pca';
export { decodeShapeModel, encodeShapeModel, modesForVariance, type ShapeModelFile } from './modelFile';
export {
  buildSurfaceIndex,
  distanceToSurface,
  meanDistanceToSurface,
  surfaceDistance,
  type SurfaceIndex,
} from './surfaceDistance';
export { compactness, generalisation, specificity, type Generalisation } from './quality';
export { landmarkModes, landmarksAt } from './landmarkModes';
export { instanceLabel, mapInstance, type MappedInstance } from './instanceMapping';
