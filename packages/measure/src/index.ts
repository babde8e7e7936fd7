// @insilico/measure — anatomical measurements on closed triangle meshes: points, planes, lumen sections (area,
// perimeter, diameters), heights, angles, curve lengths, volumes; measurement definitions on the anatomy's
// landmarks and the built-in SCCT TAVI set. Pure TypeScript (→ mesh, anatomy).

export {
  BODY_PLANES,
  MEASUREMENT_PHASES,
  SECTION_QUANTITIES,
  unitOf,
  type BodyPlane,
  type MeasurementDefinition,
  type MeasurementGeometry,
  type MeasurementPhase,
  type MeasurementType,
  type MeasurementUnit,
  type PlaneRef,
  type PointRef,
  type SectionQuantity,
} from './definitions';
export {
  collinearFailure,
  PatientMeasurer,
  type LandmarkCorrection,
  type LandmarkCorrections,
  type MeasurementOutcome,
} from './evaluate';
export {
  MIN_PLANE_SPREAD_MM,
  offsetPlane,
  planeBasis,
  planeSpread_mm,
  planeThroughPoints,
  projectOntoPlane,
  signedDistanceToPlane,
  threePointPlane,
  type Plane,
  type ThreePointPlane,
} from './plane';
export {
  chordExtremes,
  chordThrough,
  polygonCentroid,
  polygonContains,
  polygonPerimeter,
  polygonSignedArea,
  type ChordExtremes,
} from './polygon';
export { angleAt_deg, curveLength_mm, planeAngle_deg } from './primitives';
export { sectionMesh, type MeshSection, type SectionContour } from './section';
export {
  chordTowards,
  lumenSection,
  measureLumen,
  type LumenSection,
  type SectionFailure,
  type SectionMeasures,
} from './sectionMeasures';
export { TAVI_MEASUREMENTS, TAVI_SET_KEY, TAVI_SET_VERSION } from './tavi';
export { hasImagesOf, measurePatient, type PatientMeasurements } from './measurePatient';
export {
  anchorSurfacePoint,
  closestPointOnMesh,
  closestPointOnTriangle,
  landmarkFrameOf,
  MIN_FRAME_QUALITY,
  pointInFrame,
  SURFACE_PICK_TOLERANCE_MM,
  SURFACE_TRANSFER_TOLERANCE_MM,
  tetrahedronQuality,
  transferSurfacePoint,
  type LandmarkFrame,
  type SurfaceAnchor,
  type SurfacePoint,
  type SurfaceTransfer,
} from './surface';
