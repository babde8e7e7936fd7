/**
 * Test shapes: a closed ellipsoid mesh whose vertex set is symmetric under x → −x, y → −y and z → −z (so its
 * covariance is diagonal and an axis stretch needs no rotation to align), stretches along the axes as known modes,
 * and random rigid motions.
 */
import { mulberry32 } from '@insilico/stats';

export interface TestMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

/** An ellipsoid with `rings` latitude rings (none at the poles) and `segments` (a multiple of 4) per ring, plus poles. */
export function ellipsoid(radii: [number, number, number], rings = 8, segments = 16): TestMesh {
  const points: number[] = [0, 0, radii[2]];
  for (let i = 0; i < rings; i++) {
    const theta = (Math.PI * (i + 0.5)) / rings;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      points.push(
        radii[0] * Math.sin(theta) * Math.cos(phi),
        radii[1] * Math.sin(theta) * Math.sin(phi),
        radii[2] * Math.cos(theta),
      );
    }
  }
  points.push(0, 0, -radii[2]);
  const south = 1 + rings * segments;
  const at = (i: number, j: number): number => 1 + i * segments + (j % segments);
  const triangles: number[] = [];
  for (let j = 0; j < segments; j++) triangles.push(0, at(0, j), at(0, j + 1));
  for (let i = 0; i + 1 < rings; i++)
    for (let j = 0; j < segments; j++) {
      triangles.push(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      triangles.push(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  for (let j = 0; j < segments; j++) triangles.push(south, at(rings - 1, j + 1), at(rings - 1, j));
  return { positions: Float64Array.from(points), indices: Uint32Array.from(triangles) };
}

/** The unit-norm 3V-vector moving each vertex along one axis in proportion to its coordinate on that axis. */
export function axisStretch(base: Float64Array, axis: 0 | 1 | 2): Float64Array {
  const out = new Float64Array(base.length);
  for (let i = axis; i < base.length; i += 3) out[i] = base[i] as number;
  const norm = Math.hypot(...out);
  return out.map((v) => v / norm);
}

/** base + Σ amplitudes[k] · directions[k]. */
export function deform(base: Float64Array, directions: Float64Array[], amplitudes: number[]): Float64Array {
  const out = Float64Array.from(base);
  directions.forEach((dir, k) => {
    const a = amplitudes[k] ?? 0;
    for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + a * (dir[i] as number);
  });
  return out;
}

/** Row-major rotation about a unit axis by an angle (Rodrigues). */
export function rotationMatrix(axis: [number, number, number], angle: number): Float64Array {
  const n = Math.hypot(...axis);
  const [x, y, z] = axis.map((v) => v / n) as [number, number, number];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  return Float64Array.from([
    t * x * x + c, t * x * y - s * z, t * x * z + s * y,
    t * x * y + s * z, t * y * y + c, t * y * z - s * x,
    t * x * z - s * y, t * y * z + s * x, t * z * z + c,
  ]); // prettier-ignore
}

/** R · p + shift for every vertex. */
export function moveRigidly(positions: Float64Array, r: Float64Array, shift: [number, number, number]): Float64Array {
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i] as number;
    const y = positions[i + 1] as number;
    const z = positions[i + 2] as number;
    for (let a = 0; a < 3; a++)
      out[i + a] = (r[a * 3] as number) * x + (r[a * 3 + 1] as number) * y + (r[a * 3 + 2] as number) * z + shift[a]!;
  }
  return out;
}

/** A seeded random rigid motion: any axis, up to ±π, shifted by up to ±50 mm. */
export function randomRigid(seed: number): { r: Float64Array; shift: [number, number, number] } {
  const random = mulberry32(seed);
  const axis: [number, number, number] = [random() - 0.5, random() - 0.5, random() - 0.5];
  return {
    r: rotationMatrix(axis, (random() * 2 - 1) * Math.PI),
    shift: [(random() - 0.5) * 100, (random() - 0.5) * 100, (random() - 0.5) * 100],
  };
}

/**
 * Eight shapes with two known modes: amplitudes (a, b) on the grid {−12, −4, 4, 12} × {−3, 3} (mm), so the two are
 * exactly uncorrelated with zero mean, sample variances 640/7 and 72/7 mm²; each shape then moved by a random rigid
 * motion.
 */
export function twoModeSet(): {
  base: TestMesh;
  modes: [Float64Array, Float64Array];
  amplitudes: [number, number][];
  shapes: Float64Array[];
} {
  const base = ellipsoid([30, 20, 15]);
  const modes: [Float64Array, Float64Array] = [axisStretch(base.positions, 2), axisStretch(base.positions, 0)];
  const amplitudes: [number, number][] = [];
  for (const a of [-3, -1, 1, 3]) for (const b of [-1, 1]) amplitudes.push([4 * a, 3 * b]);
  const shapes = amplitudes.map(([a, b], j) => {
    const { r, shift } = randomRigid(100 + j);
    return moveRigidly(deform(base.positions, modes, [a, b]), r, shift);
  });
  return { base, modes, amplitudes, shapes };
}
