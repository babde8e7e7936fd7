/**
 * Metrics of a simple closed polygon given as (x, y) pairs in mm: signed area, perimeter, area centroid, point
 * inclusion, and chords through a point (the diameters a CT reader draws through the lumen's centre).
 */

/** Signed area (mm²), positive for counter-clockwise vertices (shoelace formula). */
export function polygonSignedArea(xy: Float64Array): number {
  const n = xy.length / 2;
  let twice = 0;
  for (let i = 0, j = n - 1; i < n; j = i++)
    twice += (xy[2 * j] as number) * (xy[2 * i + 1] as number) - (xy[2 * i] as number) * (xy[2 * j + 1] as number);
  return twice / 2;
}

/** Perimeter (mm) of the closed polygon. */
export function polygonPerimeter(xy: Float64Array): number {
  const n = xy.length / 2;
  let length = 0;
  for (let i = 0, j = n - 1; i < n; j = i++)
    length += Math.hypot(
      (xy[2 * i] as number) - (xy[2 * j] as number),
      (xy[2 * i + 1] as number) - (xy[2 * j + 1] as number),
    );
  return length;
}

/** Area centroid (mm) of the polygon; the vertex mean for a degenerate (zero-area) one. */
export function polygonCentroid(xy: Float64Array): [number, number] {
  const n = xy.length / 2;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xj = xy[2 * j] as number;
    const yj = xy[2 * j + 1] as number;
    const xi = xy[2 * i] as number;
    const yi = xy[2 * i + 1] as number;
    const w = xj * yi - xi * yj;
    a += w;
    cx += (xj + xi) * w;
    cy += (yj + yi) * w;
  }
  if (Math.abs(a) < 1e-12) {
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < n; i++) {
      sx += xy[2 * i] as number;
      sy += xy[2 * i + 1] as number;
    }
    return [sx / n, sy / n];
  }
  return [cx / (3 * a), cy / (3 * a)];
}

/** Whether (x, y) lies inside the polygon (even–odd rule). */
export function polygonContains(xy: Float64Array, x: number, y: number): boolean {
  const n = xy.length / 2;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = xy[2 * i] as number;
    const yi = xy[2 * i + 1] as number;
    const xj = xy[2 * j] as number;
    const yj = xy[2 * j + 1] as number;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Length (mm) of the chord of the polygon through (cx, cy) along the angle `theta` (rad): from the nearest edge
 * crossing on one side of the point to the nearest on the other, i.e. the part of the line inside the lumen that
 * holds the point. NaN when the line does not cross the polygon on both sides (the point is outside).
 */
export function chordThrough(xy: Float64Array, cx: number, cy: number, theta: number): number {
  const dx = Math.cos(theta);
  const dy = Math.sin(theta);
  const n = xy.length / 2;
  let ahead = Infinity;
  let behind = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = (xy[2 * j] as number) - cx;
    const ay = (xy[2 * j + 1] as number) - cy;
    const ex = (xy[2 * i] as number) - cx - ax;
    const ey = (xy[2 * i + 1] as number) - cy - ay;
    // Solve t·d = a + s·e for t (along the line) and s ∈ [0, 1] (along the edge).
    const det = ex * dy - ey * dx;
    if (det === 0) continue;
    const s = (ay * dx - ax * dy) / det;
    // A small slack so a line through a vertex exactly is caught by one of its two edges despite rounding.
    if (s < -1e-9 || s > 1 + 1e-9) continue;
    const t = (ex * ay - ey * ax) / det;
    if (t >= 0) ahead = Math.min(ahead, t);
    else behind = Math.min(behind, -t);
  }
  return ahead < Infinity && behind < Infinity ? ahead + behind : Number.NaN;
}

/** Minimum and maximum chord (mm) through a point, with the angles (rad, in [0, π)) at which they occur. */
export interface ChordExtremes {
  readonly min_mm: number;
  readonly minAngle_rad: number;
  readonly max_mm: number;
  readonly maxAngle_rad: number;
}

/** Directions sampled over the half turn before refining each extreme. */
const CHORD_SAMPLES = 180;

/**
 * The shortest and longest chords through (cx, cy) (see {@link chordThrough}): sampled every 1° over the half
 * turn, each extreme then refined by golden-section search within ±1° (chord length is smooth between polygon
 * vertices' directions, so this finds the extreme to well below 0.01 % on section polygons).
 */
export function chordExtremes(xy: Float64Array, cx: number, cy: number): ChordExtremes {
  const step = Math.PI / CHORD_SAMPLES;
  let minI = 0;
  let maxI = 0;
  let minV = Infinity;
  let maxV = -Infinity;
  for (let i = 0; i < CHORD_SAMPLES; i++) {
    const c = chordThrough(xy, cx, cy, i * step);
    if (!(c >= 0)) continue;
    if (c < minV) [minV, minI] = [c, i];
    if (c > maxV) [maxV, maxI] = [c, i];
  }
  if (!(minV < Infinity)) return { min_mm: Number.NaN, minAngle_rad: 0, max_mm: Number.NaN, maxAngle_rad: 0 };
  const refine = (centre: number, sign: 1 | -1): [number, number] => {
    const f = (t: number): number => sign * chordThrough(xy, cx, cy, t);
    const g = (Math.sqrt(5) - 1) / 2;
    let a = centre - step;
    let b = centre + step;
    let x1 = b - g * (b - a);
    let x2 = a + g * (b - a);
    let f1 = f(x1);
    let f2 = f(x2);
    for (let k = 0; k < 40; k++) {
      if (f1 <= f2) {
        b = x2;
        [x2, f2] = [x1, f1];
        x1 = b - g * (b - a);
        f1 = f(x1);
      } else {
        a = x1;
        [x1, f1] = [x2, f2];
        x2 = a + g * (b - a);
        f2 = f(x2);
      }
    }
    const t = f1 <= f2 ? x1 : x2;
    const value = sign * Math.min(f1, f2);
    // Keep the sample when refinement wandered onto a NaN or worse value.
    const sampled = sign * f(centre);
    return Number.isFinite(value) && sign * value <= sign * sampled ? [value, t] : [sampled, centre];
  };
  const [min, minAt] = refine(minI * step, 1);
  const [max, maxAt] = refine(maxI * step, -1);
  const wrap = (t: number): number => ((t % Math.PI) + Math.PI) % Math.PI;
  return { min_mm: min, minAngle_rad: wrap(minAt), max_mm: max, maxAngle_rad: wrap(maxAt) };
}
