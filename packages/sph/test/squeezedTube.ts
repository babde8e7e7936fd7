import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBinaryStl, type TriangleMesh } from '@insilico/mesh';
import type { VesselFlowOptions } from '../src/vessel';
import type { WallMotionOptions } from '../src/movingWall';
import { tube } from './shapes';

// The moving-wall verification case (movingWall.test.ts, scripts/moving-wall.ts): a tube closed at x = 0 (flat cap)
// with a pressure outlet at x = XO whose radius follows R(x, t) = R0 · s(x, t), s = 1 − ε g(t) b(x),
// g(t) = (1 − cos 2πt/T)/2 over the period T, b = 1 up to X1, a half-cosine ramp down to 0 at X2, 0 beyond (the
// outlet's section stays put). The wall moves through `frames` frames of that mesh; between frames the interpolation
// takes over. Lengths scale with R0 (3 mm); `n` = R0/dp sets the resolution. Coordinates in m (scale 1).

export const R0 = 3e-3;
export const SEGMENTS = 48;
export const X1 = 3.2 * R0;
export const X2 = 4.4 * R0;
export const XO = 5.2 * R0;
/** Period, s, and the radius's largest relative decrease. */
export const T = 0.2;
export const EPS = 0.2;
export const RHO = 1060;

export const g = (t: number): number => (1 - Math.cos((2 * Math.PI * t) / T)) / 2;
export const b = (x: number): number =>
  x <= X1 ? 1 : x >= X2 ? 0 : (1 + Math.cos((Math.PI * (x - X1)) / (X2 - X1))) / 2;
export const s = (x: number, t: number): number => 1 - EPS * g(t) * b(x);

/** Length of the mesh: past the outlet buffer (4 dp) by 3 dp. */
export const meshEnd = (dp: number): number => XO + 7 * dp;

/** The tube at time t: rings every R0/10 along x, each scaled radially by s(x, t) (the cap's centre stays on the axis). */
export function squeezedTube(t: number, dp: number): TriangleMesh {
  const end = meshEnd(dp);
  const m = tube(R0, 0, end, SEGMENTS, Math.round(end / (R0 / 10)));
  const p = Float64Array.from(m.positions);
  for (let v = 0; v < p.length; v += 3) {
    const k = s(p[v]!, t);
    p[v + 1] = p[v + 1]! * k;
    p[v + 2] = p[v + 2]! * k;
  }
  return { positions: p, indices: m.indices };
}

/** Lumen volume lost since t = 0: the inscribed polygon's area × ∫ (1 − s²) dx (midpoint rule, 4000 points), m³. */
export function volumeLost(t: number): number {
  const area = (SEGMENTS / 2) * R0 * R0 * Math.sin((2 * Math.PI) / SEGMENTS);
  const n = 4000;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += 1 - s(((i + 0.5) * X2) / n, t) ** 2;
  return (area * sum * X2) / n;
}

/** `frames` frames over the period after the reference (frame 0 = `squeezedTube(0, dp)`). */
export function squeezedMotion(dp: number, frames = 12): WallMotionOptions {
  const times = Array.from({ length: frames - 1 }, (_, k) => ((k + 1) * T) / frames);
  return { frames: times.map((t) => squeezedTube(t, dp)), times, period: T };
}

/**
 * Flow settings at dp = R0/n: blood's density, μ = 0.01 Pa·s; the largest outflow speed is about 0.07 m/s, and
 * c₀ = 3 m/s keeps δρ/ρ ≈ p/(ρc₀²) small.
 */
export function squeezedOptions(n: number, motion?: WallMotionOptions): VesselFlowOptions {
  const dp = R0 / n;
  return {
    scale: 1,
    dp,
    rho0: RHO,
    mu: 0.01,
    uRef: 0.1,
    c0: 3,
    inlets: [],
    outlets: [{ centre: [XO, 0, 0], direction: [1, 0, 0], radius: R0, pressure: 0 }],
    ...(motion ? { motion } : {}),
  };
}

/** The squeezed tube's frames written as binary STL files in mm into `dir` (frame0.stl the reference), as a case names them. */
export async function writeSqueezedFrames(
  dir: string,
  dp: number,
): Promise<{ period: number; frames: { file: string; time: number }[] }> {
  const motion = squeezedMotion(dp);
  const mm = (m: TriangleMesh): TriangleMesh => ({ positions: m.positions.map((v) => v * 1e3), indices: m.indices });
  await writeFile(join(dir, 'frame0.stl'), writeBinaryStl(mm(squeezedTube(0, dp))));
  const frames = await Promise.all(
    motion.times.map(async (time, k) => {
      const file = `frame${k + 1}.stl`;
      await writeFile(join(dir, file), writeBinaryStl(mm(motion.frames[k]!)));
      return { file, time };
    }),
  );
  return { period: T, frames };
}

/**
 * The squeezed tube as a case file (the frames of `writeSqueezedFrames` in the same folder), at R0/dp = `n`, ending at
 * `endTime`; `vessel` is merged into the vessel's settings (e.g. `{ wallMotion: 'cine', cine }`).
 */
export function squeezedCase(n: number, endTime: number, vessel: object, extra: object = {}): object {
  return {
    dimension: 3,
    dp: R0 / n,
    endTime,
    outputInterval: endTime / 2,
    ...extra,
    fluid: {
      density: RHO,
      viscosity: 0.01,
      referenceVelocity: 0.1,
      soundSpeed: 3,
      freeSurface: false,
      vessel: { file: 'frame0.stl', ...vessel },
      outlets: [{ centre: [XO, 0, 0], direction: [1, 0, 0], radius: R0, pressure: 0 }],
    },
  };
}
