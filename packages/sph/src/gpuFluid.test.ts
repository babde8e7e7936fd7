import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The WebGPU backend (float32, gpuFluid.ts) against the CPU's TypeScript reference (float64), docs/decisions/sph-gpu.md.
// Each case runs in a child process (scripts/gpu-compare.ts), so that no WebGPU instance lives in the test runner: a
// native fault in Dawn or Mesa would take the vitest worker down with it instead of failing one test. Without SPH_GPU_BACKEND the cases run on Mesa's software OpenGL ES (llvmpipe: Debian's
// libegl-mesa0 libgles2 libgl1-mesa-dri, which tools/test-prerequisites.mjs installs), so CI checks the shaders
// without a GPU; where no adapter can be created at all, the tests are skipped and say why.
// Tolerances (float32 rounding; observed values in brackets): the same advection and acoustic step counts; positions
// within 1e-3 dp [5e-5 dp]; velocities within 1e-4 of the reference speed 2√(gH) [1.6e-5]; pressure within 3e-3 ρgH
// [3.5e-4]; density within 1e-5 ρ₀ [8e-7].

const SCRIPT = fileURLToPath(new URL('../scripts/gpu-compare.ts', import.meta.url));

interface Counters {
  time: number;
  advectionSteps: number;
  acousticSteps: number;
}

interface Result {
  unavailable?: string;
  cpu?: Counters;
  gpu?: Counters;
  difference?: Record<'x' | 'y' | 'z' | 'vx' | 'vy' | 'vz' | 'p' | 'rho', number>;
  identical?: boolean;
  refused?: string | null;
}

/** Runs case `name` of scripts/gpu-compare.ts in a child process and returns its result. */
function compare(name: string): Result {
  const env = { ...process.env };
  if (!env.SPH_GPU_BACKEND) {
    env.SPH_GPU_BACKEND = 'opengles';
    env.EGL_PLATFORM ??= 'surfaceless';
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, name], {
    env,
    encoding: 'utf8',
    timeout: 200_000,
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (line) return JSON.parse(line.slice('RESULT '.length)) as Result;
  throw new Error(
    `gpu-compare ${name} ended with status ${run.status} (${run.signal ?? 'no signal'}): ${run.stderr.slice(-2000)}`,
  );
}

/** Skips the test (saying why) where no adapter can be created. */
function skipWithout(result: Result, skip: (note: string) => void): void {
  if (result.unavailable) {
    console.warn(`GPU backend test skipped: ${result.unavailable}`);
    skip(`no WebGPU adapter: ${result.unavailable}`);
  }
}

function expectClose(result: Result, dp: number, speed: number): void {
  const { cpu, gpu, difference: d } = result;
  expect(gpu!.advectionSteps).toBe(cpu!.advectionSteps);
  expect(gpu!.acousticSteps).toBe(cpu!.acousticSteps);
  expect(Math.abs(gpu!.time - cpu!.time)).toBeLessThan(1e-6 * cpu!.time);
  for (const f of ['x', 'y', 'z'] as const) expect(d![f]).toBeLessThan(1e-3 * dp);
  for (const f of ['vx', 'vy', 'vz'] as const) expect(d![f]).toBeLessThan(1e-4 * speed);
  // ρgH = 1 Pa and ρ₀ = 1 in the dam breaks.
  expect(d!.p).toBeLessThan(3e-3);
  expect(d!.rho).toBeLessThan(1e-5);
  // It did run in float32 (not a copy of the CPU's result).
  expect(d!.p).toBeGreaterThan(0);
}

describe('WebGPU backend (float32) against the CPU reference', () => {
  it('2D dam break (dp 0.05) to t = 0.3: same steps, fields within float32 tolerances', (context) => {
    const result = compare('dam2d');
    skipWithout(result, (note) => context.skip(note));
    expectClose(result, 0.05, 2);
  }, 240_000);

  it('3D column (dp 0.1) collapsing in a tank to t = 0.3: same steps, fields within float32 tolerances', (context) => {
    const result = compare('column3d');
    skipWithout(result, (note) => context.skip(note));
    expectClose(result, 0.1, 2 * Math.sqrt(0.4));
  }, 240_000);

  it('gives the same bytes run after run (cells sorted by index, maxima only)', (context) => {
    const result = compare('repeat');
    skipWithout(result, (note) => context.skip(note));
    expect(result.identical).toBe(true);
  }, 240_000);

  it('refuses what it does not support yet, saying what', (context) => {
    const result = compare('periodic');
    skipWithout(result, (note) => context.skip(note));
    expect(result.refused).toMatch(/does not support .*periodic axes/);
  }, 240_000);
});
