import { describe, expect, it } from 'vitest';
import { collapsingColumn3d, damBreak, hydrostaticTank } from './cases';
import { type WeaklyCompressibleFluid, resolvePairPrecision } from './fluid';
import type { PairPrecision } from './neighbours';
import { hydrostaticProfile, surgeFront } from './verification';
import type { FluidBackend } from './wasmKernels';

// The float32 option for large runs (`FluidOptions.pairPrecision: 'f32'`, docs/decisions/sph-float32.md): the
// neighbour lists' cached pair data in float32, fields and arithmetic in float64. Against the float64 run on the
// verification cases, on both backends. Tolerances (docs/validation.md, "float32 pair data"): the hydrostatic
// check's 2 % still met and pressures within 1e-4 ρgH of float64 (observed about 3e-6); the dam break's front within
// 0.01 dp and every position within 1e-3 dp of float64 at t = 1.5 (observed 8e-7 m = 1.7e-5 dp); each backend still
// bit-identical for 1 and 2 threads.

/** Builds with `backend` and `precision` through the environment switches the cases read (restored afterwards). */
function build<T>(backend: FluidBackend, precision: PairPrecision, make: () => T): T {
  const saved = [process.env.SPH_BACKEND, process.env.SPH_PAIR_PRECISION];
  process.env.SPH_BACKEND = backend;
  process.env.SPH_PAIR_PRECISION = precision;
  try {
    return make();
  } finally {
    if (saved[0] === undefined) delete process.env.SPH_BACKEND;
    else process.env.SPH_BACKEND = saved[0];
    if (saved[1] === undefined) delete process.env.SPH_PAIR_PRECISION;
    else process.env.SPH_PAIR_PRECISION = saved[1];
  }
}

/** Largest |a − b| of field `f` over the fluid particles. */
function maxDifference(a: WeaklyCompressibleFluid, b: WeaklyCompressibleFluid, f: 'x' | 'y' | 'z' | 'p'): number {
  let m = 0;
  for (let i = 0; i < a.fluid.count; i++) m = Math.max(m, Math.abs(a.fluid[f][i]! - b.fluid[f][i]!));
  return m;
}

async function runOn(sim: WeaklyCompressibleFluid, threads: number, end: number): Promise<WeaklyCompressibleFluid> {
  // Every thread even on these small cases (the default would run them on one: pool.ts, MIN_WORK_PER_THREAD).
  sim.minWorkPerThread = 0;
  await sim.startThreads(threads);
  try {
    sim.run(end);
  } finally {
    await sim.stopThreads();
  }
  return sim;
}

describe('float32 pair data (pairPrecision f32) against float64', () => {
  it('selects the precision by option, by SPH_PAIR_PRECISION, and refuses an unknown name', () => {
    expect(resolvePairPrecision('f32')).toBe('f32');
    expect(build('ts', 'f32', () => resolvePairPrecision())).toBe('f32');
    expect(resolvePairPrecision()).toBe(process.env.SPH_PAIR_PRECISION ?? 'f64');
    expect(() => resolvePairPrecision('f16' as PairPrecision)).toThrow(/unknown SPH pair precision/);
    const sim = build('wasm', 'f32', () => damBreak({ dp: 0.1 }));
    expect(sim.inner.dw).toBeInstanceOf(Float32Array);
    expect(sim.contact.ex).toBeInstanceOf(Float32Array);
  });

  for (const backend of ['ts', 'wasm'] as const) {
    it(`${backend}: hydrostatic tank meets the 2 % check and matches float64 within 1e-4 ρgH (2 threads)`, async () => {
      const make = (precision: PairPrecision): WeaklyCompressibleFluid =>
        build(backend, precision, () => hydrostaticTank({ width: 1, depth: 1, dp: 0.05, g: 1, rho0: 1, mu: 0.05 }));
      const single = await runOn(make('f32'), 2, 4);
      const double = await runOn(make('f64'), 1, 4);
      const { pressure, expected, depth } = hydrostaticProfile(single, 1, 1, 1, 5);
      for (let b = 0; b < 5; b++) {
        if (depth[b]! < 0.2) continue;
        expect(Math.abs(pressure[b]! / expected[b]! - 1)).toBeLessThan(0.02);
      }
      // ρgH = 1 Pa here.
      expect(maxDifference(single, double, 'p')).toBeLessThan(1e-4);
      expect(maxDifference(single, double, 'p')).toBeGreaterThan(0);
    }, 120_000);
  }

  it('wasm: 2D dam break front and positions within 0.01 dp / 1e-3 dp of float64 at t = 1.5', () => {
    const dp = 0.05;
    const single = build('wasm', 'f32', () => damBreak({ dp }));
    const double = build('wasm', 'f64', () => damBreak({ dp }));
    single.run(1.5);
    double.run(1.5);
    expect(Math.abs(surgeFront(single) - surgeFront(double))).toBeLessThan(0.01 * dp);
    expect(maxDifference(single, double, 'x')).toBeLessThan(1e-3 * dp);
    expect(maxDifference(single, double, 'y')).toBeLessThan(1e-3 * dp);
  }, 120_000);

  it('wasm: a 3D column matches float64 within 1e-3 dp and is bit-identical on 1 and 2 threads', async () => {
    const dp = 0.1;
    const make = (precision: PairPrecision): WeaklyCompressibleFluid =>
      collapsingColumn3d({ backend: 'wasm', pairPrecision: precision });
    const one = await runOn(make('f32'), 1, 0.5);
    const two = await runOn(make('f32'), 2, 0.5);
    const double = await runOn(make('f64'), 1, 0.5);
    for (const f of ['x', 'y', 'z', 'p'] as const) expect(maxDifference(one, two, f)).toBe(0);
    for (const f of ['x', 'y', 'z'] as const) expect(maxDifference(one, double, f)).toBeLessThan(1e-3 * dp);
  }, 120_000);
});
