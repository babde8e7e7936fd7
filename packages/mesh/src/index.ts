// @insilico/mesh — indexed triangle meshes: construction (ring lofts), metrics, topology checks, sections,
// STL and GLB I/O. Pure TypeScript, no internal dependencies.

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
export { surfaceArea_mm2 } from './surfaceArea';
export { enclosedVolume_mm3 } from './enclosedVolume';
export { boundingBox } from './boundingBox';
export { analyseTopology, type TopologyReport } from './topology';
export { planeSection, sectionChord_mm, type PlaneSection } from './planeSection';
export { vertexNormals } from './vertexNormals';
export { writeBinaryStl, binaryStlByteLength } from './stlWrite';
export { readStl, StlParseError } from './stlRead';
export { writeGlb, type NamedMesh, type GlbOptions } from './glbWrite';
export { transformPositions, type RigidTransform } from './transform';
