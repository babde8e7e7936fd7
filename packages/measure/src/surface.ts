import type { Landmark, LandmarkName, Organ, PatientMeshes } from '@insilico/anatomy';
import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import { cross, distance, dot, sub } from './vec3';

/**
 * Points picked on a surface and carried to other patients (issue 23): a picked point is stored in the affine frame
 * of four nearby named landmarks (its barycentric coordinates in their tetrahedron), rebuilt from the same landmarks
 * of another patient and put back on that patient's organ surface (the nearest surface point). See
 * docs/decisions/measurement-surface-points.md for the method and its failure mode.
 */

/** How far (mm) a picked point may lie from the organ's surface of the anatomy it was picked on. */
export const SURFACE_PICK_TOLERANCE_MM = 1;
/**
 * How far (mm) the point rebuilt from the landmarks of another patient may lie from that patient's organ surface
 * before the transfer is refused: beyond it the landmarks do not carry the point on this anatomy.
 */
export const SURFACE_TRANSFER_TOLERANCE_MM = 3;
/** The tetrahedron quality (1 regular, 0 flat) below which four landmarks do not make a frame. */
export const MIN_FRAME_QUALITY = 0.15;
/** Landmarks considered for a frame: the nearest ones to the point. */
const CANDIDATES = 8;

/** Four landmarks and the point's coordinates along the edges from the first: p = l0 + Σ cᵢ (lᵢ − l0). */
export interface LandmarkFrame {
  readonly landmarks: readonly [LandmarkName, LandmarkName, LandmarkName, LandmarkName];
  readonly coordinates: Vec3;
}

/** A point picked on an organ's surface (patient frame, mm, as picked) with the landmark frame that carries it. */
export interface SurfacePoint {
  readonly organ: Organ;
  readonly position: Vec3;
  readonly frame: LandmarkFrame;
}

/** The nearest point of a triangle mesh to `p`, and its distance (mm); brute force over the triangles. */
export function closestPointOnMesh(mesh: TriangleMesh, p: Vec3): { point: Vec3; distance: number } {
  const { positions: x, indices } = mesh;
  let best: Vec3 = [Number.NaN, Number.NaN, Number.NaN];
  let bestSq = Number.POSITIVE_INFINITY;
  for (let t = 0; t < indices.length; t += 3) {
    const ia = 3 * (indices[t] as number);
    const ib = 3 * (indices[t + 1] as number);
    const ic = 3 * (indices[t + 2] as number);
    const q = closestPointOnTriangle(
      p,
      [x[ia] as number, x[ia + 1] as number, x[ia + 2] as number],
      [x[ib] as number, x[ib + 1] as number, x[ib + 2] as number],
      [x[ic] as number, x[ic + 1] as number, x[ic + 2] as number],
    );
    const d = (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2;
    if (d < bestSq) {
      bestSq = d;
      best = q;
    }
  }
  return { point: best, distance: Math.sqrt(bestSq) };
}

const add = (a: Vec3, b: Vec3, s: number): Vec3 => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];

/** The nearest point of triangle abc to p (Ericson, Real-Time Collision Detection §5.1.5: Voronoi regions). */
export function closestPointOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const ab = sub(b, a);
  const ac = sub(c, a);
  const ap = sub(p, a);
  const d1 = dot(ab, ap);
  const d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp);
  const d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, ab, d1 / (d1 - d3));
  const cp = sub(p, c);
  const d5 = dot(ab, cp);
  const d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, ac, d2 / (d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return add(b, sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6)));
  const denom = 1 / (va + vb + vc);
  return add(add(a, ab, vb * denom), ac, vc * denom);
}

/** Mean-ratio quality of a tetrahedron: 6√2 |V| / l_rms³, 1 for a regular one, 0 for four coplanar points. */
export function tetrahedronQuality(a: Vec3, b: Vec3, c: Vec3, d: Vec3): number {
  const volume6 = Math.abs(dot(sub(b, a), cross(sub(c, a), sub(d, a))));
  const pairs: [Vec3, Vec3][] = [
    [a, b],
    [a, c],
    [a, d],
    [b, c],
    [b, d],
    [c, d],
  ];
  const rms = Math.sqrt(pairs.reduce((s, [u, v]) => s + distance(u, v) ** 2, 0) / 6);
  return rms > 0 ? (Math.SQRT2 * volume6) / rms ** 3 : 0;
}

/** Solves p − l0 = [e1 e2 e3] c by Cramer's rule; undefined when the edges are (nearly) coplanar. */
function coordinatesIn(p: Vec3, l: readonly [Vec3, Vec3, Vec3, Vec3]): Vec3 | undefined {
  const [l0, l1, l2, l3] = l;
  const e1 = sub(l1, l0);
  const e2 = sub(l2, l0);
  const e3 = sub(l3, l0);
  const r = sub(p, l0);
  const det = dot(e1, cross(e2, e3));
  if (!(Math.abs(det) > 1e-9)) return undefined;
  return [dot(r, cross(e2, e3)) / det, dot(e1, cross(r, e3)) / det, dot(e1, cross(e2, r)) / det];
}

/** The point with `coordinates` in the frame of four landmark positions. */
export function pointInFrame(coordinates: Vec3, l: readonly [Vec3, Vec3, Vec3, Vec3]): Vec3 {
  const [l0, l1, l2, l3] = l;
  const [c1, c2, c3] = coordinates;
  return add(add(add(l0, sub(l1, l0), c1), sub(l2, l0), c2), sub(l3, l0), c3);
}

/**
 * The landmark frame that carries `point` to other anatomies: among the landmarks nearest to it, the four whose
 * tetrahedron is not flat (quality ≥ MIN_FRAME_QUALITY) with the least score reach · (1 + 2 · outside) / √quality,
 * where reach is the farthest member's distance from the point (local frames follow local shape) and outside the
 * sum of the point's negative barycentric coordinates (a point inside its tetrahedron is interpolated, outside it
 * extrapolated). Undefined when no four landmarks make a frame.
 */
export function landmarkFrameOf(point: Vec3, landmarks: readonly Landmark[]): LandmarkFrame | undefined {
  const near = [...landmarks]
    .map((l) => ({ l, d: distance(l.position, point) }))
    .sort((a, b) => a.d - b.d || a.l.name.localeCompare(b.l.name))
    .slice(0, CANDIDATES);
  let best: { frame: LandmarkFrame; score: number } | undefined;
  for (let i = 0; i < near.length; i++)
    for (let j = i + 1; j < near.length; j++)
      for (let k = j + 1; k < near.length; k++)
        for (let m = k + 1; m < near.length; m++) {
          const four = [near[i], near[j], near[k], near[m]] as { l: Landmark; d: number }[];
          const positions = four.map((f) => f.l.position) as [Vec3, Vec3, Vec3, Vec3];
          const quality = tetrahedronQuality(...positions);
          if (quality < MIN_FRAME_QUALITY) continue;
          const coordinates = coordinatesIn(point, positions);
          if (coordinates === undefined) continue;
          const [c1, c2, c3] = coordinates;
          const outside = [1 - c1 - c2 - c3, c1, c2, c3].reduce((sum, b) => sum + Math.max(0, -b), 0);
          const score = (Math.max(...four.map((f) => f.d)) * (1 + 2 * outside)) / Math.sqrt(quality);
          if (best && score >= best.score) continue;
          const names = four.map((f) => f.l.name) as [LandmarkName, LandmarkName, LandmarkName, LandmarkName];
          best = { frame: { landmarks: names, coordinates }, score };
        }
  return best?.frame;
}

/** Where a surface point lands on another anatomy, or why it does not. */
export type SurfaceTransfer = { readonly point: Vec3; readonly offSurface_mm: number } | { readonly failure: string };

const label = (name: string): string => name.replaceAll('_', ' ');

/**
 * Carries a surface point to an anatomy: rebuilt from the same four landmarks there, then put on the organ's
 * surface (nearest point). Fails, saying why, when a landmark is missing, the four are (nearly) flat there, or the
 * rebuilt point lies farther than SURFACE_TRANSFER_TOLERANCE_MM from the surface.
 */
export function transferSurfacePoint(
  point: SurfacePoint,
  landmarkAt: (name: LandmarkName) => Vec3 | undefined,
  organ: TriangleMesh,
): SurfaceTransfer {
  const positions: Vec3[] = [];
  for (const name of point.frame.landmarks) {
    const p = landmarkAt(name);
    if (p === undefined) return { failure: `The anatomy has no ${label(name)} landmark to carry the picked point.` };
    positions.push(p);
  }
  const four = positions as unknown as [Vec3, Vec3, Vec3, Vec3];
  const names = point.frame.landmarks.map(label).join(', ');
  if (tetrahedronQuality(...four) < MIN_FRAME_QUALITY / 3)
    return { failure: `The landmarks that carry the picked point (${names}) lie nearly in one plane here.` };
  const rebuilt = pointInFrame(point.frame.coordinates, four);
  const nearest = closestPointOnMesh(organ, rebuilt);
  if (!(nearest.distance <= SURFACE_TRANSFER_TOLERANCE_MM))
    return {
      failure:
        `The picked point, carried by its landmarks (${names}), lands ${nearest.distance.toFixed(1)} mm from the ` +
        `${label(point.organ)} surface (more than ${SURFACE_TRANSFER_TOLERANCE_MM} mm): the landmarks do not place ` +
        'it on this anatomy.',
    };
  return { point: nearest.point, offSurface_mm: nearest.distance };
}

/** A picked point anchored on the anatomy it was picked on, or why it cannot be. */
export type SurfaceAnchor =
  | { readonly frame: LandmarkFrame; readonly offSurface_mm: number; readonly point: Vec3 }
  | { readonly failure: string };

/**
 * Anchors a point picked on an organ of one anatomy: its distance from that organ's surface (the caller refuses a
 * point farther than SURFACE_PICK_TOLERANCE_MM), the nearest surface point and its landmark frame. The anatomy is a
 * patient's meshes or any organs with landmarks (a shape of a statistical shape model).
 */
export function anchorSurfacePoint(
  meshes: Pick<PatientMeshes, 'organs' | 'landmarks'>,
  organ: Organ,
  position: Vec3,
): SurfaceAnchor {
  const mesh = meshes.organs.find((o) => o.organ === organ)?.mesh;
  if (mesh === undefined) return { failure: `The anatomy has no ${label(organ)} mesh to pick on.` };
  const nearest = closestPointOnMesh(mesh, position);
  const frame = landmarkFrameOf(nearest.point, meshes.landmarks);
  if (frame === undefined) return { failure: 'No four landmarks of the anatomy make a frame for the picked point.' };
  return { frame, offSurface_mm: nearest.distance, point: nearest.point };
}
