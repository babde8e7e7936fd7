import { afterEach, describe, expect, it } from 'vitest';
import { parseCase } from './caseFile';
import { buildCase } from './caseRunner';
import { collapsingColumn3d, damBreak, hydrostaticTank } from './cases';
import { type WeaklyCompressibleFluid } from './fluid';
import { hydrostaticProfile, kineticEnergy, surgeFront } from './verification';
import { resolveBackend, type FluidBackend } from './wasmKernels';

// The WebAssembly SIMD kernels (assembly/kernels.ts) against the TypeScript reference passes (passes.ts), see
// docs/decisions/sph-wasm-kernels.md. The kernels add the pairs of a row in two lanes (even and odd pairs), so the
// sums differ from the scalar loop in the last bits; over these short runs every field stays within 1e-9 of its
// scale (observed: about 1e-14). Each backend is bit-identical for any thread count.

/** Fields compared. */
const FIELDS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'rho', 'p'] as const;

/** Builds a case with `backend` (through the environment switch the cases read, restored afterwards). */
function withBackend<T>(backend: FluidBackend, build: () => T): T {
  const saved = process.env.SPH_BACKEND;
  process.env.SPH_BACKEND = backend;
  try {
    return build();
  } finally {
    if (saved === undefined) delete process.env.SPH_BACKEND;
    else process.env.SPH_BACKEND = saved;
  }
}

/** Largest |a − b| of field `f` over the live fluid particles. */
function maxDifference(a: WeaklyCompressibleFluid, b: WeaklyCompressibleFluid, f: (typeof FIELDS)[number]): number {
  let m = 0;
  for (let i = 0; i < a.fluid.count; i++) m = Math.max(m, Math.abs(a.fluid[f][i]! - b.fluid[f][i]!));
  return m;
}

/** Number of values that differ in any bit between the two simulations' fluid fields. */
function differingValues(a: WeaklyCompressibleFluid, b: WeaklyCompressibleFluid): number {
  let n = 0;
  for (const f of FIELDS) for (let i = 0; i < a.fluid.count; i++) if (!Object.is(a.fluid[f][i], b.fluid[f][i])) n++;
  return n;
}

/** Runs `sim` to `end` s on `threads` threads and returns it. */
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

describe('WebAssembly SIMD kernels against the TypeScript reference', () => {
  afterEach(() => {
    expect(process.env.SPH_BACKEND).toBeUndefined();
  });

  it('selects the backend by option, by SPH_BACKEND, and refuses an unknown name', () => {
    expect(resolveBackend('wasm')).toBe('wasm');
    expect(resolveBackend()).toBe('ts');
    expect(withBackend('wasm', () => resolveBackend())).toBe('wasm');
    expect(() => resolveBackend('gpu' as FluidBackend)).toThrow(/unknown SPH backend 'gpu'/);
    expect(withBackend('wasm', () => damBreak({ dp: 0.1 })).backend).toBe('wasm');
    expect(damBreak({ dp: 0.1 }).backend).toBe('ts');
  });

  it('a case file picks the backend ("backend": "wasm"); same flow as the TypeScript backend', async () => {
    const damCase = {
      dimension: 2,
      dp: 0.1,
      endTime: 0.4,
      outputInterval: 0.2,
      gravity: [0, -1, 0],
      fluid: {
        name: 'water',
        density: 1,
        viscosity: 0.01,
        referenceVelocity: 2,
        region: { shapes: [{ type: 'box', lower: [0, 0, 0], upper: [1, 1, 0] }] },
      },
      walls: { container: { lower: [0, 0, 0], upper: [3, 2, 0], thickness: 0.3 } },
      particles: [{ name: 'beads', mode: 'inertial', diameter: 0.01, density: 2, positions: [[0.5, 0.5, 0]] }],
    };
    expect(() => parseCase(JSON.stringify({ ...damCase, backend: 'gpu' }))).toThrow();
    const ts = await buildCase(parseCase(JSON.stringify(damCase)), '.');
    const wasm = await buildCase(parseCase(JSON.stringify({ ...damCase, backend: 'wasm' })), '.');
    expect(ts.fluid?.backend).toBe('ts');
    expect(wasm.fluid?.backend).toBe('wasm');
    for (const sim of [ts, wasm]) while (sim.fluid!.counters.time < 0.4 - 1e-12) sim.step(0.4);
    expect(maxDifference(ts.fluid!, wasm.fluid!, 'y')).toBeLessThan(1e-9);
    expect(maxDifference(ts.fluid!, wasm.fluid!, 'vy')).toBeLessThan(2e-9);
  }, 60_000);

  it('neighbour rows: bit-identical to the TypeScript build (2D dam break and 3D column, first advection step)', () => {
    const pairs = [
      [damBreak({ dp: 0.05 }), withBackend('wasm', () => damBreak({ dp: 0.05 }))],
      [collapsingColumn3d({ backend: 'ts' }), collapsingColumn3d({ backend: 'wasm' })],
    ] as const;
    for (const [ts, wasm] of pairs) {
      ts.advectionStep();
      wasm.advectionStep();
      for (const list of ['inner', 'contact'] as const) {
        const a = ts[list];
        const b = wasm[list];
        let rows = 0;
        let mismatches = 0;
        for (let i = 0; i < ts.fluid.count; i++) {
          const n = a.end[i]! - a.start[i]!;
          if (b.end[i]! - b.start[i]! !== n) mismatches++;
          for (let k = 0; k < n; k++) {
            const ka = a.start[i]! + k;
            const kb = b.start[i]! + k;
            if (b.j[kb] !== a.j[ka]) mismatches++;
            for (const f of ['w', 'dw', 'r', 'ex', 'ey', 'ez'] as const)
              if (!Object.is(b[f][kb], a[f][ka])) mismatches++;
          }
          rows += n > 0 ? 1 : 0;
        }
        expect(mismatches).toBe(0);
        expect(rows).toBeGreaterThan(0);
      }
    }
  }, 60_000);

  it('2D dam break (dp 0.05, t = 0.6): same steps, fields within 1e-9 of their scale; 1, 2, 3 threads bit-identical', async () => {
    const ts = await runOn(damBreak({ dp: 0.05 }), 1, 0.6);
    const one = await runOn(
      withBackend('wasm', () => damBreak({ dp: 0.05 })),
      1,
      0.6,
    );
    const two = await runOn(
      withBackend('wasm', () => damBreak({ dp: 0.05 })),
      2,
      0.6,
    );
    const three = await runOn(
      withBackend('wasm', () => damBreak({ dp: 0.05 })),
      3,
      0.6,
    );
    expect(one.counters).toEqual(ts.counters);
    // Scales: H = 1 m, U = 2 m/s, ρ₀ = 1, p ~ ρ₀c₀²·1 % = 4 Pa.
    for (const f of ['x', 'y'] as const) expect(maxDifference(ts, one, f)).toBeLessThan(1e-9);
    for (const f of ['vx', 'vy'] as const) expect(maxDifference(ts, one, f)).toBeLessThan(2e-9);
    expect(maxDifference(ts, one, 'rho')).toBeLessThan(1e-9);
    expect(maxDifference(ts, one, 'p')).toBeLessThan(4e-9);
    expect(surgeFront(one)).toBeCloseTo(surgeFront(ts), 9);
    expect(differingValues(one, two)).toBe(0);
    expect(differingValues(one, three)).toBe(0);
  }, 120_000);

  it('3D collapsing column (dp 0.1, t = 0.5): fields within 1e-9 of their scale; 1 and 2 threads bit-identical', async () => {
    const ts = await runOn(collapsingColumn3d({ backend: 'ts' }), 1, 0.5);
    const one = await runOn(collapsingColumn3d({ backend: 'wasm' }), 1, 0.5);
    const two = await runOn(collapsingColumn3d({ backend: 'wasm' }), 2, 0.5);
    expect(one.counters).toEqual(ts.counters);
    for (const f of ['x', 'y', 'z', 'rho'] as const) expect(maxDifference(ts, one, f)).toBeLessThan(1e-9);
    for (const f of ['vx', 'vy', 'vz'] as const) expect(maxDifference(ts, one, f)).toBeLessThan(2e-9);
    expect(differingValues(one, two)).toBe(0);
  }, 120_000);

  it('the one-pass pressure relaxation (fusedPressure) on the wasm backend equals the two-pass form bit for bit', async () => {
    for (const build of [
      () => withBackend('wasm', () => damBreak({ dp: 0.05 })),
      () => collapsingColumn3d({ backend: 'wasm' }),
    ]) {
      const twoPass = await runOn(build(), 1, 0.3);
      const fused = build();
      fused.fusedPressure = true;
      await runOn(fused, 2, 0.3);
      expect(fused.counters).toEqual(twoPass.counters);
      expect(differingValues(twoPass, fused)).toBe(0);
    }
  }, 60_000);

  it('hydrostatic tank on 2 threads (dp = H/20, t = 4): within 2 % of ρ·g·depth, band pressures = the reference within 1e-6', async () => {
    const tank = (): WeaklyCompressibleFluid =>
      hydrostaticTank({ width: 1, depth: 1, dp: 0.05, g: 1, rho0: 1, mu: 0.05 });
    const ts = await runOn(tank(), 2, 4);
    const wasm = await runOn(withBackend('wasm', tank), 2, 4);
    const reference = hydrostaticProfile(ts, 1, 1, 1, 5);
    const { pressure, expected, depth } = hydrostaticProfile(wasm, 1, 1, 1, 5);
    for (let b = 0; b < 5; b++) {
      expect(Math.abs(pressure[b]! - reference.pressure[b]!)).toBeLessThan(1e-6);
      if (depth[b]! < 0.2) continue;
      expect(Math.abs(pressure[b]! / expected[b]! - 1)).toBeLessThan(0.02);
    }
    expect(kineticEnergy(wasm)).toBeLessThan(1e-5);
  }, 120_000);
});
