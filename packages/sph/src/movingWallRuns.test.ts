import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCase } from './caseFile';
import { buildCase, type CaseSimulation } from './caseRunner';
import { R0, T, squeezedCase, writeSqueezedFrames } from '../test/squeezedTube';

// The moving vessel wall (docs/decisions/sph-moving-walls.md) on the engine's other paths: worker threads, the
// WebAssembly kernels and a checkpoint restart, through the case file (the squeezed tube of movingWall.test.ts, R0/5,
// to T/8: about 13 advection steps of a flow the wall drives). The wall's state is a function of time only and is set
// at the start of each advection step, so threads and a restart must not change a bit; the WebAssembly kernels add a
// row's pairs in two lanes and differ from the TypeScript passes in the last bits (docs/decisions/sph-wasm-kernels.md):
// there every field must stay within 1e-9 of its scale (positions in dp, velocities in the wall's peak speed, density
// in ρ₀), six orders above the round-off seen and far below any physical difference.

const N = 5;
const DP = R0 / N;
const END = T / 8;
/** The squeezed wall's peak radial speed, m/s: R0 ε π/T. */
const WALL_SPEED = (R0 * 0.2 * Math.PI) / T;
const FIELDS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'p', 'mass'] as const;

let dir = '';
let cine: Awaited<ReturnType<typeof writeSqueezedFrames>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sph-moving-wall-runs-'));
  cine = await writeSqueezedFrames(dir, DP);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function build(extra: object = {}): Promise<CaseSimulation> {
  return buildCase(parseCase(JSON.stringify(squeezedCase(N, END, { wallMotion: 'cine', cine }, extra))), dir);
}

/** Steps `sim` to `end` s on `threads` threads (every one of them, however small the case). */
async function runTo(sim: CaseSimulation, end: number, threads = 1): Promise<CaseSimulation> {
  if (threads > 1) {
    sim.fluid!.minWorkPerThread = 0;
    await sim.startThreads(threads);
  }
  try {
    while (sim.counters.time < end) sim.step(end);
  } finally {
    await sim.stopThreads();
  }
  return sim;
}

/** Largest |a − b| of a fluid field over the live particles (the same count and ids checked first). */
function largestDifference(a: CaseSimulation, b: CaseSimulation, field: (typeof FIELDS)[number]): number {
  const fa = a.fluid!.fluid;
  const fb = b.fluid!.fluid;
  let m = 0;
  for (let i = 0; i < fa.count; i++) m = Math.max(m, Math.abs(fa[field][i]! - fb[field][i]!));
  return m;
}

/** Number of values (fluid fields, the wall's positions, velocities and volumes, the crossed mass) that differ in any bit. */
function differingValues(a: CaseSimulation, b: CaseSimulation): number {
  let n = 0;
  const fa = a.fluid!.fluid;
  const fb = b.fluid!.fluid;
  for (const f of FIELDS) for (let i = 0; i < fa.count; i++) if (!Object.is(fa[f][i], fb[f][i])) n++;
  const wa = a.fluid!.wall;
  const wb = b.fluid!.wall;
  for (const f of ['x', 'y', 'z', 'vx', 'vy', 'vz', 'vol'] as const) {
    for (let i = 0; i < wa.count; i++) if (!Object.is(wa[f][i], wb[f][i])) n++;
  }
  const ca = a.open!.crossedMass().outflow;
  const cb = b.open!.crossedMass().outflow;
  ca.forEach((v, k) => {
    if (!Object.is(v, cb[k])) n++;
  });
  return n;
}

function sameParticles(a: CaseSimulation, b: CaseSimulation): void {
  expect(b.fluid!.counters).toEqual(a.fluid!.counters);
  expect(b.fluid!.fluid.count).toBe(a.fluid!.fluid.count);
  const n = a.fluid!.fluid.count;
  expect(Array.from(b.fluid!.fluid.id.subarray(0, n))).toEqual(Array.from(a.fluid!.fluid.id.subarray(0, n)));
}

describe('moving vessel wall on threads, WebAssembly and a restart', () => {
  let reference: CaseSimulation;

  beforeAll(async () => {
    reference = await runTo(await build(), END);
    // The wall moved and drove an outflow (the runs compared are not trivially equal).
    expect(reference.fluid!.counters.advectionSteps).toBeGreaterThan(8);
    expect(reference.open!.crossedMass().outflow[0]!).toBeGreaterThan(0);
  }, 120_000);

  it('2 threads: bit-identical to 1 thread', async () => {
    const two = await runTo(await build(), END, 2);
    sameParticles(reference, two);
    expect(differingValues(reference, two)).toBe(0);
  }, 120_000);

  it('restored at T/16 from a checkpoint into a fresh case: bit-identical to the run that wrote it and went on', async () => {
    // Both stop at T/16 (an end time shortens the last step, so a run through it takes other steps).
    const straight = await runTo(await build(), T / 16);
    const bytes = straight.checkpoint();
    await runTo(straight, END);
    const restored = await build();
    restored.restore(bytes);
    expect(restored.counters.time).toBe(T / 16);
    // The fresh case's wall is still at frame 0: it moves to the checkpoint's time at the next step's start.
    await runTo(restored, END);
    sameParticles(straight, restored);
    expect(differingValues(straight, restored)).toBe(0);
  }, 120_000);

  it('WebAssembly kernels: within 1e-9 of each field scale of the TypeScript passes; bit-identical on 2 threads', async () => {
    const wasm = await runTo(await build({ backend: 'wasm' }), END);
    expect(wasm.fluid!.backend).toBe('wasm');
    sameParticles(reference, wasm);
    for (const f of ['x', 'y', 'z'] as const) expect(largestDifference(reference, wasm, f) / DP).toBeLessThan(1e-9);
    for (const f of ['vx', 'vy', 'vz'] as const) {
      expect(largestDifference(reference, wasm, f) / WALL_SPEED).toBeLessThan(1e-9);
    }
    expect(largestDifference(reference, wasm, 'rho') / 1060).toBeLessThan(1e-9);
    const out = reference.open!.crossedMass().outflow[0]!;
    expect(Math.abs(wasm.open!.crossedMass().outflow[0]! - out) / out).toBeLessThan(1e-9);
    const wasmTwo = await runTo(await build({ backend: 'wasm' }), END, 2);
    sameParticles(wasm, wasmTwo);
    expect(differingValues(wasm, wasmTwo)).toBe(0);
  }, 120_000);
});
