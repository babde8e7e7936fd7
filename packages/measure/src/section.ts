import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import { planeBasis, type Plane } from './plane';

/** One closed (or, on an open or unwelded mesh, broken) polygon of a plane section, in the plane's 2D basis. */
export interface SectionContour {
  /** Vertices as (u, v) pairs in mm relative to the plane's point, counter-clockwise about the normal when outward. */
  readonly points: Float64Array;
  /** False when the chain of segments did not come back to its start (open or unwelded mesh). */
  readonly closed: boolean;
}

/** The section of a mesh with a plane: its contours in the basis (u, v) of the plane. */
export interface MeshSection {
  readonly plane: Plane;
  readonly u: Vec3;
  readonly v: Vec3;
  readonly contours: readonly SectionContour[];
}

/**
 * Cuts an indexed, outward-oriented triangle mesh with a plane and chains the cut segments into contours.
 * Each vertex's signed distance is computed once; a crossing point is computed from its edge's two vertices in
 * index order, so the two triangles sharing an edge produce the identical point and segments chain by edge key
 * (the mesh must be welded: neighbouring triangles share vertex indices, as every mesh of @insilico/anatomy does).
 * Vertices exactly on the plane count as above it, so each crossing edge is split once. `hint`: direction of the
 * basis vector u (projected into the plane).
 */
export function sectionMesh(mesh: TriangleMesh, plane: Plane, hint?: Vec3): MeshSection {
  const p = mesh.positions;
  const idx = mesh.indices;
  const vertices = p.length / 3;
  const [ox, oy, oz] = plane.point;
  const [nx, ny, nz] = plane.normal;
  const { u, v } = planeBasis(plane, hint);
  const d = new Float64Array(vertices);
  for (let i = 0, k = 0; i < vertices; i++, k += 3)
    d[i] = ((p[k] as number) - ox) * nx + ((p[k + 1] as number) - oy) * ny + ((p[k + 2] as number) - oz) * nz;

  // Segments as (start edge, end edge), oriented counter-clockwise about the normal for an outward mesh.
  const starts: number[] = [];
  const ends: number[] = [];
  const key = (i: number, j: number): number => (i < j ? i * vertices + j : j * vertices + i);
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t] as number;
    const b = idx[t + 1] as number;
    const c = idx[t + 2] as number;
    const sa = (d[a] as number) >= 0;
    const sb = (d[b] as number) >= 0;
    const sc = (d[c] as number) >= 0;
    if (sa === sb && sb === sc) continue;
    // The lone vertex l, its successor s and predecessor r in the triangle's order.
    const [l, s, r] = sa !== sb && sa !== sc ? [a, b, c] : sb !== sa && sb !== sc ? [b, c, a] : [c, a, b];
    // P on edge l–s, Q on edge r–l: with l above the plane the outward section runs P → Q counter-clockwise.
    if ((d[l] as number) >= 0) {
      starts.push(key(l, s));
      ends.push(key(r, l));
    } else {
      starts.push(key(r, l));
      ends.push(key(l, s));
    }
  }

  const byStart = new Map<number, number>();
  for (let i = 0; i < starts.length; i++) byStart.set(starts[i] as number, i);
  const used = new Uint8Array(starts.length);
  /** The crossing point of edge `e` in plane coordinates, written at out[o], out[o + 1]. */
  const crossing = (e: number, out: number[]): void => {
    const i = Math.floor(e / vertices);
    const j = e - i * vertices;
    const di = d[i] as number;
    const w = di / (di - (d[j] as number));
    const x = (p[3 * i] as number) + w * ((p[3 * j] as number) - (p[3 * i] as number)) - ox;
    const y = (p[3 * i + 1] as number) + w * ((p[3 * j + 1] as number) - (p[3 * i + 1] as number)) - oy;
    const z = (p[3 * i + 2] as number) + w * ((p[3 * j + 2] as number) - (p[3 * i + 2] as number)) - oz;
    out.push(x * u[0] + y * u[1] + z * u[2], x * v[0] + y * v[1] + z * v[2]);
  };
  const contours: SectionContour[] = [];
  for (let first = 0; first < starts.length; first++) {
    if (used[first] === 1) continue;
    const xy: number[] = [];
    let s = first;
    let closed = false;
    for (;;) {
      used[s] = 1;
      crossing(starts[s] as number, xy);
      const next = byStart.get(ends[s] as number);
      if (next === first) {
        closed = true;
        break;
      }
      if (next === undefined || used[next] === 1) break;
      s = next;
    }
    contours.push({ points: Float64Array.from(xy), closed });
  }
  return { plane, u, v, contours };
}
