// `npm run bench -- sph`: throughput of the SPH engine (packages/sph) on the dam breaks as SPHinXsys sets them
// up, for a short simulated time:
//   2D, dp 0.025 (3,200 fluid / 3,504 wall particles), end time SPH_BENCH_END (default 2), on each thread count
//   of SPH_BENCH_THREADS (default "1,2"; the main thread plus worker_threads over the shared storage);
//   3D, dp 0.05 (8,000 fluid / 56,560 wall particles), end time SPH_BENCH_3D_END (default 0.3; 0 skips it), on
//   the largest thread count.
// Throughput = moving (fluid) particles × inner acoustic steps ÷ compute seconds (no output is written; starting
// the worker pool is excluded). The reference figures are SPHinXsys (C++17, TBB, Release) measured on this
// machine over end time 20 (issue 7): 2D 2.57 M/s with 2 threads and 1.46 M/s with 1 thread; 3D 0.54 M/s with 2
// threads. Figures go to docs/benchmarks.md, "SPH engine".
import { damBreak, damBreak3d, surgeFront, type WeaklyCompressibleFluid } from '@insilico/sph';

const END_2D = Number(process.env.SPH_BENCH_END ?? 2);
const END_3D = Number(process.env.SPH_BENCH_3D_END ?? 0.3);
const DP_2D = Number(process.env.SPH_BENCH_DP ?? 0.025);
const SPIN = process.env.SPH_BENCH_SPIN === undefined ? undefined : Number(process.env.SPH_BENCH_SPIN);
const THREADS = (process.env.SPH_BENCH_THREADS ?? '1,2').split(',').map(Number);

async function measure(
  label: string,
  sim: WeaklyCompressibleFluid,
  threads: number,
  end: number,
  references: [string, number][],
): Promise<void> {
  const fluidCount = sim.fluid.count;
  console.log(
    `\n${label}, ${threads} thread(s): ${fluidCount} fluid / ${sim.wall.count} wall particles, end time ${end}`,
  );
  await sim.startThreads(threads, SPIN);
  let wall = 0;
  let cpu = 0;
  try {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    sim.run(end);
    wall = (performance.now() - t0) / 1000;
    // process.cpuUsage covers every thread of the process, workers included.
    const cpuUsage = process.cpuUsage(cpu0);
    cpu = (cpuUsage.user + cpuUsage.system) / 1e6;
  } finally {
    await sim.stopThreads();
  }
  const { advectionSteps, acousticSteps } = sim.counters;
  const updates = fluidCount * acousticSteps;
  console.log(
    `advection / acoustic steps: ${advectionSteps} / ${acousticSteps}; front x = ${surgeFront(sim).toFixed(3)}`,
  );
  console.log(`compute: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU (all threads of the process)`);
  const mups = updates / wall / 1e6;
  const ratios = references.map(([name, ref]) => `${name} ${(mups / ref).toFixed(2)}`).join(', ');
  console.log(`wall clock: ${mups.toFixed(3)} M particle-updates/s; ratio to SPHinXsys ${ratios}`);
  console.log(`CPU time:   ${(updates / cpu / 1e6).toFixed(3)} M particle-updates per CPU second`);
}

for (const threads of THREADS) {
  await measure(`2D dam break, dp ${DP_2D}`, damBreak({ dp: DP_2D }), threads, END_2D, [
    ['1 thread', 1.46],
    ['2 threads', 2.57],
  ]);
}
if (END_3D > 0) {
  await measure('3D dam break, dp 0.05', damBreak3d({ dp: 0.05 }), Math.max(...THREADS), END_3D, [['2 threads', 0.54]]);
}
