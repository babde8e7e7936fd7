import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCase } from './caseFile';
import { buildCase } from './caseRunner';
import { tube } from '../test/shapes';
import {
  EPS,
  R0,
  RHO,
  SEGMENTS,
  T,
  X1,
  X2,
  b,
  meshEnd,
  s,
  squeezedMotion,
  squeezedOptions,
  squeezedCase,
  squeezedTube,
  volumeLost,
  writeSqueezedFrames,
} from '../test/squeezedTube';
import { heartCycleMotion } from './movingWall';
import { openVessel, vesselFromMesh } from './vessel';

// A tube closed at one end, squeezed by its wall through 12 frames over the period T, with a pressure outlet at the
// other end (test/squeezedTube.ts). R0/dp = 5.
const N = 5;
const DP = R0 / N;
const motion = squeezedMotion(DP);

describe('vessel wall moving with the frames', () => {
  it('is static without the option; with it, the wall particles follow the surface with its velocity', () => {
    const still = vesselFromMesh(squeezedTube(0, DP), squeezedOptions(N));
    expect(still.motion).toBeUndefined();
    const v = vesselFromMesh(squeezedTube(0, DP), squeezedOptions(N, motion));
    const wall = v.wall;
    const r0 = Array.from({ length: wall.count }, (_, i) => Math.hypot(wall.y[i]!, wall.z[i]!));
    const x0 = Array.from({ length: wall.count }, (_, i) => wall.x[i]!);
    const vol0 = Array.from({ length: wall.count }, (_, i) => wall.vol[i]!);
    // Between two frames (cubic interpolation): on the side wall where the facets stay parallel to the axis (b
    // constant: the squeezed cylinder and the static end), a particle's radius changes by its anchor's radial
    // displacement, R0 (s − 1) × (the anchor's radius on its facet, between R0 cos(π/48) and R0)/R0, and its radial
    // velocity is the anchor's, R0 ∂s/∂t at that radius; its volume follows the facet's area, × s.
    const t = 0.37 * T;
    v.motion!.moveTo(wall, t);
    const dgdt = (Math.PI / T) * Math.sin((2 * Math.PI * t) / T);
    const facet = 1 - Math.cos(Math.PI / SEGMENTS);
    let checked = 0;
    for (let i = 0; i < wall.count; i++) {
      const x = x0[i]!;
      if (x < 2 * DP || (x > X1 - DP && x < X2 + DP) || x > meshEnd(DP) - 2 * DP) continue;
      const r = Math.hypot(wall.y[i]!, wall.z[i]!);
      const expected = R0 * (s(x, t) - 1);
      // The interpolation's own error is far below 1e-3 dp here (12 frames of a cosine).
      expect(Math.abs(r - r0[i]! - expected)).toBeLessThan(Math.abs(expected) * facet + 1e-3 * DP);
      expect(wall.x[i]).toBeCloseTo(x, 9);
      const radial = (wall.vy[i]! * wall.y[i]! + wall.vz[i]! * wall.z[i]!) / r;
      const speed = -R0 * EPS * dgdt * b(x);
      expect(Math.abs(radial - speed)).toBeLessThan(Math.abs(speed) * (facet + 0.01) + 1e-6);
      expect(wall.vol[i]! / vol0[i]!).toBeCloseTo(s(x, t), 3);
      expect(Math.hypot(wall.nx[i]!, wall.ny[i]!, wall.nz[i]!)).toBeCloseTo(1, 9);
      checked++;
    }
    expect(checked).toBeGreaterThan(0.4 * wall.count);
    // Back at the reference after a whole period.
    v.motion!.moveTo(wall, T);
    for (let i = 0; i < wall.count; i++) {
      expect(Math.hypot(wall.y[i]!, wall.z[i]!)).toBeCloseTo(r0[i]!, 9);
      expect(wall.vol[i]! / vol0[i]!).toBeCloseTo(1, 9);
    }
  }, 60_000);

  it('mass balance: the volume that leaves through the outlet equals the lumen volume the wall squeezes out (5 %)', () => {
    const open = openVessel(squeezedTube(0, DP), squeezedOptions(N, motion));
    expect(open.sim.options.movingWall).toBe(true);
    // The smooth crossed mass counts the fluid within a buffer length before the plane in part from the start: its
    // change since t = 0 is what crossed.
    const start = open.crossedMass().outflow[0]!;
    const scale = volumeLost(T / 2);
    for (const end of [T / 4, T / 2]) {
      open.run(end);
      const out = (open.crossedMass().outflow[0]! - start) / RHO;
      expect(Math.abs(out - volumeLost(open.sim.counters.time)) / scale).toBeLessThan(0.05);
    }
  }, 120_000);

  it('a heart cycle from systolic frames: ejection over the ejection time, then the frames reversed over filling', () => {
    const systole = [0, 1, 2, 3].map((k) => squeezedTube((k * T) / 8, DP));
    const { reference, motion: cycle } = heartCycleMotion(systole, { period: 1, ejection: 0.3 });
    expect(reference).toBe(systole[0]);
    expect(cycle.frames).toEqual([systole[1], systole[2], systole[3], systole[2], systole[1]]);
    const times = [0.1, 0.2, 0.3, 0.3 + 0.7 / 3, 0.3 + 1.4 / 3];
    cycle.times.forEach((t, k) => expect(t).toBeCloseTo(times[k]!, 12));
    expect(cycle.period).toBe(1);
    expect(() => heartCycleMotion(systole, { period: 1, ejection: 1 })).toThrow(/shorter than the period/);
    expect(() => heartCycleMotion(systole.slice(0, 1), { period: 1, ejection: 0.3 })).toThrow(/at least two/);
  });

  it('refuses frames that do not correspond to the mesh', () => {
    const other = tube(R0, 0, meshEnd(DP), SEGMENTS, 7);
    const frames = [other, ...motion.frames.slice(1)];
    expect(() => vesselFromMesh(squeezedTube(0, DP), squeezedOptions(N, { ...motion, frames }))).toThrow(
      /frame 2 has \d+ triangles/,
    );
  }, 60_000);

  it('case file: the wall is static unless wallMotion is cine; with it, the case moves the vessel wall', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sph-moving-wall-'));
    try {
      // The frames in mm, as a patient's STL files are.
      const cine = await writeSqueezedFrames(dir, DP);
      const vessel = (patch: object): string => JSON.stringify(squeezedCase(N, T / 2, patch));
      const still = await buildCase(parseCase(vessel({})), dir);
      expect(still.fluid!.options.movingWall).toBe(false);
      expect(still.wallSurface).toBeDefined();
      const moving = await buildCase(parseCase(vessel({ wallMotion: 'cine', cine })), dir);
      expect(moving.fluid!.options.movingWall).toBe(true);
      expect(moving.wallSurface).toBeUndefined();
      const w = moving.fluid!.wall;
      const r = (i: number): number => Math.hypot(w.y[i]!, w.z[i]!);
      // A wall particle on the squeezed cylinder: after a few steps it has moved inwards with the surface.
      let i = 0;
      while (!(w.x[i]! > 3 * DP && w.x[i]! < X1 - 3 * DP && r(i) < R0 + DP)) i++;
      const before = r(i);
      for (let k = 0; k < 3; k++) moving.step(T / 2);
      const t = moving.counters.time;
      expect(t).toBeGreaterThan(0);
      // Moved to the previous step's time (the wall moves at the start of each step).
      expect(r(i) - before).toBeLessThan(0);
      expect(w.vy[i]! * w.y[i]! + w.vz[i]! * w.z[i]!).toBeLessThan(0);
      expect(() => parseCase(vessel({ wallMotion: 'cine' }))).toThrow(/cine: a moving wall needs its frames/);
      expect(() => parseCase(vessel({ cine }))).toThrow(/wallMotion: set wallMotion to 'cine'/);
      const late = { ...cine, frames: [{ file: 'frame1.stl', time: T }] };
      expect(() => parseCase(vessel({ wallMotion: 'cine', cine: late }))).toThrow(/must lie before the period/);
      const backwards = { ...cine, frames: [cine.frames[1]!, cine.frames[0]!] };
      expect(() => parseCase(vessel({ wallMotion: 'cine', cine: backwards }))).toThrow(/times must rise strictly/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
