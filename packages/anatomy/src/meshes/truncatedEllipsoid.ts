import { loftIndices, loftRingVertex, loftVertexCount, type LoftOptions, type TriangleMesh64 } from '@insilico/mesh';

/**
 * A ventricle-like truncated ellipsoid: semi-axes radiusX, radiusY (mm, across) and halfLength (mm, along z),
 * centred at z = −baseOffset and cut by the base plane z = 0; the apex points to −z, the base centre is the origin.
 */
export interface TruncatedEllipsoid {
  readonly radiusX: number;
  readonly radiusY: number;
  readonly halfLength: number;
  /** Height of the base plane above the ellipsoid's centre, mm (0 ≤ baseOffset < halfLength). */
  readonly baseOffset: number;
}

/** Rings from apex to base (the last ring lies in the base plane) and vertices per ring of a chamber. */
export const CHAMBER_RINGS = 24;
/** Vertices per ring of chamber meshes. */
export const CHAMBER_RING_SIZE = 48;

/** Volume of the continuous truncated ellipsoid, mm³ (for layout only; meshes are measured). */
export function truncatedEllipsoidVolume_mm3(shape: TruncatedEllipsoid): number {
  const c = shape.halfLength;
  const h = shape.baseOffset;
  return ((Math.PI * shape.radiusX * shape.radiusY) / (c * c)) * (c * c * (h + c) - (h * h * h + c * c * c) / 3);
}

/**
 * Writes CHAMBER_RINGS rings of `shape` into loft ring slots starting at `firstRing` (ascending apex → base, or
 * descending base → apex when `descending`), ring vertices counter-clockwise seen from +z.
 */
export function writeChamberRings(
  shape: TruncatedEllipsoid,
  positions: Float64Array,
  options: LoftOptions,
  firstRing: number,
  descending: boolean,
): void {
  const { radiusX, radiusY, halfLength: c, baseOffset: h } = shape;
  const psiMax = Math.acos(-h / c);
  const n = options.ringSize;
  for (let j = 0; j < CHAMBER_RINGS; j++) {
    const psi = (psiMax * (j + 1)) / CHAMBER_RINGS;
    const s = Math.sin(psi);
    const z = j === CHAMBER_RINGS - 1 ? 0 : -h - c * Math.cos(psi);
    const ring = descending ? firstRing + CHAMBER_RINGS - 1 - j : firstRing + j;
    for (let i = 0; i < n; i++) {
      const theta = (2 * Math.PI * i) / n;
      const v = loftRingVertex(options, ring, i) * 3;
      positions[v] = radiusX * s * Math.cos(theta);
      positions[v + 1] = radiusY * s * Math.sin(theta);
      positions[v + 2] = z;
    }
  }
}

/** Closed chamber mesh (mm): apex pole, CHAMBER_RINGS rings, flat base closed by a fan around the base centre. */
export function truncatedEllipsoidMesh(shape: TruncatedEllipsoid): TriangleMesh64 {
  const options: LoftOptions = { ringCount: CHAMBER_RINGS, ringSize: CHAMBER_RING_SIZE };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  positions[2] = -shape.baseOffset - shape.halfLength;
  writeChamberRings(shape, positions, options, 0, false);
  // Top pole: the base centre (0, 0, 0), already zero.
  return { positions, indices: loftIndices(options) };
}
