// @insilico/ssm — statistical shape models of corresponding organ meshes: correspondence, generalised Procrustes
// alignment, PCA through the Gram matrix, instances at ±k SD, and the quality measures (compactness, generalisation,
// specificity) as surface distances. Pure TypeScript on typed arrays (→ mesh for types, stats for linear algebra).

export { SsmInputError } from './errors';
export { correspondByTopology, type CorrespondingShapes } from './correspondence';
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
export { buildShapeModel, modelInstance, projectShape, type ShapeModel, type ShapeModelOptions } from './pca';
export {
  buildSurfaceIndex,
  distanceToSurface,
  meanDistanceToSurface,
  surfaceDistance,
  type SurfaceIndex,
} from './surfaceDistance';
export { compactness, generalisation, specificity, type Generalisation } from './quality';
