/** Core mesh types shared by every module of @insilico/mesh. */

/** Vertex positions as packed xyz triples (mm unless a caller says otherwise). */
export type PositionArray = Float32Array | Float64Array;

/**
 * Indexed triangle mesh: `positions` holds xyz per vertex (mm), `indices` three vertex indices per triangle.
 * A closed mesh is outward-oriented when each triangle's vertices run counter-clockwise seen from outside.
 */
export interface TriangleMesh {
  readonly positions: PositionArray;
  readonly indices: Uint32Array;
}

/** A triangle mesh with double-precision positions (mm): what builders return and scale in place. */
export interface TriangleMesh64 extends TriangleMesh {
  readonly positions: Float64Array;
}

/** A point or direction in 3D, mm for points, unitless for directions. */
export type Vec3 = readonly [number, number, number];

/** Axis-aligned bounding box, mm. */
export interface BoundingBox {
  readonly min: Vec3;
  readonly max: Vec3;
}

/** Number of vertices of a mesh. */
export function vertexCount(mesh: TriangleMesh): number {
  return mesh.positions.length / 3;
}

/** Number of triangles of a mesh. */
export function triangleCount(mesh: TriangleMesh): number {
  return mesh.indices.length / 3;
}
