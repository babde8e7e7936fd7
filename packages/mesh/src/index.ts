// @insilico/mesh — indexed triangle meshes: construction (ring lofts), metrics, topology checks, sections,
// STL parsing and validation, preview images, STL and GLB output. Pure TypeScript (deflate from fflate), no
// internal dependencies.

export {
  type TriangleMesh,
  type TriangleMesh64,
  type PositionArray,
  type Vec3,
  type BoundingBox,
  vertexCount,
  triangleCount,
} from './types';
export { type LoftOptions, loftIndices, loftVertexCount, loftRingVertex } from './loft';
export { triangleMeasures, type TriangleMeasures } from './triangleMeasures';
export { surfaceArea_mm2 } from './surfaceArea';
export { enclosedVolume_mm3 } from './enclosedVolume';
export { boundingBox } from './boundingBox';
export { analyseTopology, type TopologyReport } from './topology';
export { planeSection, sectionChord_mm, sectionSegments, type PlaneSection } from './planeSection';
export { vertexNormals } from './vertexNormals';
export { writeBinaryStl, binaryStlByteLength } from './stlWrite';
export { writeVtpPolyData, type VtpPointData } from './vtpWrite';
export { readStl, StlParseError } from './stlRead';
export {
  parseStl,
  parseStlChunks,
  createStlParser,
  MAX_STL_TRIANGLES,
  type StlFormat,
  type StlParser,
  type StlParseResult,
} from './stlParse';
export { type StlRefusal, type StlRefusalCode } from './stlRefusal';
export {
  measureMeshQuality,
  meshFindings,
  type MeshQuality,
  type MeshFinding,
  type MeshFindingCode,
} from './meshQuality';
export { validateStl, validateStlChunks, type StlValidation } from './stlValidate';
export { renderMeshPreview, meshPreviewPng, type MeshPreviewOptions, type RgbaImage } from './meshPreview';
export { encodePng } from './pngEncode';
export { writeGlb, type NamedMesh, type GlbOptions } from './glbWrite';
export { transformPositions, type RigidTransform } from './transform';
export {
  coherentPointDrift,
  CpdInputError,
  CPD_MAX_MOVING_POINTS,
  type CpdOptions,
  type CpdResult,
} from './coherentPointDrift';
export { decimateTo, DecimationInputError } from './decimate';
export { farthestPointSample } from './farthestPointSample';
