// `npm run bench -- sph-gpu`: throughput of the SPH engine's WebGPU backend (packages/sph/src/gpuFluid.ts, float32)
// on SPHinXsys's 3D dam break (2 × 1 × 0.5 water column in a 5.366 × 2 × 0.5 tank), by default at dp 0.01: 1,000,000
// fluid particles (and about 1.2 million wall particles). It prints the adapter, then runs SPH_GPU_BENCH_WARMUP
// advection steps (default 2; shader compilation and first uploads), then SPH_GPU_BENCH_STEPS advection steps (default
// 20) timed, and reports million particle-updates per second = fluid particles × acoustic steps ÷ seconds (the host
// reads the time-step state back once per advection step; that wait is included).
//
// Environment: SPH_GPU_BENCH_DP (default 0.01), SPH_GPU_BENCH_STEPS, SPH_GPU_BENCH_WARMUP; SPH_GPU_BACKEND (Dawn
// backend: unset = Dawn's default, Vulkan on Linux; `opengles` with EGL_PLATFORM=surfaceless for Mesa's software
// renderer); SPH_GPU_BENCH_CHECK=1 also runs the same steps on the CPU (TypeScript backend, float64; slow at 1M
// particles: use it with a coarser SPH_GPU_BENCH_DP) and prints the largest differences.
//
// On a machine without the repository's node_modules (e.g. a GPU server with only a node binary):
// `node tools/bundle-sph-gpu-bench.mjs` writes build/sph-gpu-bench/ (this bench as one ES module plus the webgpu
// package's Linux x64 Dawn binary); copy that folder and run `node sph-gpu.mjs` inside it (docs/benchmarks.md).
import { damBreak3d } from '../packages/sph/src/cases';
import { openGpu } from '../packages/sph/src/gpuDevice';
import { GpuFluid } from '../packages/sph/src/gpuFluid';

const DP = Number(process.env.SPH_GPU_BENCH_DP ?? 0.01);
const STEPS = Number(process.env.SPH_GPU_BENCH_STEPS ?? 20);
const WARMUP = Number(process.env.SPH_GPU_BENCH_WARMUP ?? 2);
const CHECK = process.env.SPH_GPU_BENCH_CHECK === '1';

const t0 = performance.now();
const sim = damBreak3d({ dp: DP });
const reference = CHECK ? damBreak3d({ dp: DP }) : null;
console.log(
  `3D dam break, dp ${DP}: ${sim.fluid.count} fluid / ${sim.wall.count} wall particles (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);
const gpu = await openGpu();
console.log(`adapter: ${JSON.stringify(gpu.adapter)} (Dawn backend ${gpu.backend})`);
const t1 = performance.now();
const fluid = await GpuFluid.create(sim, gpu);
console.log(`set-up (upload, shader compilation): ${((performance.now() - t1) / 1000).toFixed(2)} s`);
const far = 1e9;
for (let s = 0; s < WARMUP; s++) await fluid.advectionStep(far);
const acoustic0 = fluid.counters.acousticSteps;
const time0 = fluid.counters.time;
const t2 = performance.now();
for (let s = 0; s < STEPS; s++) await fluid.advectionStep(far);
const seconds = (performance.now() - t2) / 1000;
const acoustic = fluid.counters.acousticSteps - acoustic0;
const updates = sim.fluid.count * acoustic;
console.log(
  `${STEPS} advection / ${acoustic} acoustic steps (simulated ${(fluid.counters.time - time0).toFixed(4)} s) in ${seconds.toFixed(3)} s: ${(
    (1000 * seconds) /
    acoustic
  ).toFixed(2)} ms per acoustic step`,
);
console.log(`throughput: ${(updates / seconds / 1e6).toPrecision(3)} M particle-updates/s (goal: 100 at 1M particles)`);
await fluid.download();
if (reference) {
  // The same advection steps (the CPU's time differs from the GPU's float32 sum in the last bits).
  for (let s = 0; s < WARMUP + STEPS; s++) reference.advectionStep();
  let dx = 0;
  let dp = 0;
  for (let i = 0; i < sim.fluid.count; i++) {
    dx = Math.max(
      dx,
      Math.abs(sim.fluid.x[i]! - reference.fluid.x[i]!),
      Math.abs(sim.fluid.z[i]! - reference.fluid.z[i]!),
    );
    dp = Math.max(dp, Math.abs(sim.fluid.p[i]! - reference.fluid.p[i]!));
  }
  console.log(
    `CPU check to t = ${reference.counters.time.toFixed(4)} (${reference.counters.acousticSteps} acoustic steps, GPU ${fluid.counters.acousticSteps}): max |Δx| ${dx.toExponential(2)} m, max |Δp| ${dp.toExponential(2)} Pa`,
  );
}
fluid.destroy();
gpu.device.destroy();
process.exit(0);
