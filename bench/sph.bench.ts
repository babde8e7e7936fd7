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
//
// A/B mode, for a machine whose load changes from minute to minute: SPH_BENCH_COMPARE=<root of another checkout>
// (e.g. `git worktree add --detach /tmp/sph-old <commit>` plus a node_modules symlink) runs the 2D case from that
// checkout (A) and from this one (B) side by side in this process, in alternating blocks of SPH_BENCH_BLOCK advection
// steps (default 4; A then B, then B then A, …) up to SPH_BENCH_END, on each thread count, and prints the medians and
// totals of ms per acoustic step (wall and CPU, lower is better), their ratios B/A and the number of fluid values
// that differ between the two at the end. SPH_BENCH_FUSE=1 (0) runs the pressure relaxation as one pass (two)
// (WeaklyCompressibleFluid.fusedPressure) in every run that has the switch.
//
// SPH_BACKEND=wasm runs our hot passes on the WebAssembly SIMD kernels (default ts, the TypeScript reference);
// SPH_BENCH_BACKENDS=ts,wasm alternates the backends in this process (each on every thread count of
// SPH_BENCH_THREADS, the 3D case too), SPH_BENCH_ROUNDS times (default 1).
//
// Race mode, the fair comparison with the C++ reference on one machine in one run: SPH_BENCH_RACE=<dir>[,<dir>…], each
// a SPHinXsys build made by ../shared/tools/sphinxsys/build_sphinxsys.sh (e.g. the default build and a
// CXX_FLAGS_EXTRA=-march=native one; test_2d_dambreak and test_3d_dambreak are found below each dir). For every row it
// runs, SPH_BENCH_ROUNDS times (default 2), each C++ build and then ours (C++, ours, C++, ours), and prints per round
// the ratio ours ÷ the faster C++ build of that round (million particle-updates per second, fluid particles ×
// acoustic steps ÷ compute seconds, output excluded on both sides). Rows: 2D dp 0.025 on 1 and 2 threads to
// SPH_BENCH_RACE_2D_END (default 20); 2D dp 0.0125 on 2 threads to SPH_BENCH_RACE_FINE_END (default 4; the C++
// program must read its spacing from SPH_DP, a one-line local change described in docs/benchmarks.md, else the row
// is skipped); 3D dp 0.05 on 2 threads to SPH_BENCH_RACE_3D_END (default 20). SPH_BENCH_RACE_ROWS picks rows by
// number (default 1,2,3,4). The load average is printed before each row (the race is meant for a quiet machine).
//
// Thread-rule mode, to choose MIN_WORK_PER_THREAD (packages/sph/src/pool.ts): SPH_BENCH_WORK=<dp>[,<dp>…] runs the 2D
// dam break at each spacing to SPH_BENCH_END on each thread count of SPH_BENCH_THREADS with every thread forced
// (minWorkPerThread 0), alternating, SPH_BENCH_ROUNDS times (default 1), and prints the work units per pass (particles
// plus fluid and wall pairs, as the pool counts them) with wall and CPU ms per acoustic step.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as current from '@insilico/sph';
import {
  damBreak,
  damBreak3d,
  resolveBackend,
  surgeFront,
  type FluidBackend,
  type WeaklyCompressibleFluid,
} from '@insilico/sph';

const END_2D = Number(process.env.SPH_BENCH_END ?? 2);
const END_3D = Number(process.env.SPH_BENCH_3D_END ?? 0.3);
const DP_2D = Number(process.env.SPH_BENCH_DP ?? 0.025);
const SPIN = process.env.SPH_BENCH_SPIN === undefined ? undefined : Number(process.env.SPH_BENCH_SPIN);
const THREADS = (process.env.SPH_BENCH_THREADS ?? '1,2').split(',').map(Number);
const COMPARE = process.env.SPH_BENCH_COMPARE;
/** SPH_BENCH_FUSE=1|0: the pressure relaxation in one pass or two (`fusedPressure`, in every run that has it). */
const FUSE = process.env.SPH_BENCH_FUSE === undefined ? undefined : process.env.SPH_BENCH_FUSE === '1';
const BLOCK = Number(process.env.SPH_BENCH_BLOCK ?? 4);

/** SPH_BENCH_FUSE=1|0 forces the pressure relaxation's form (default: the simulation's, two passes). */
function applyFuse(sim: WeaklyCompressibleFluid): void {
  if (FUSE !== undefined && 'fusedPressure' in sim) sim.fusedPressure = FUSE;
}

/**
 * What the pool's thread rule chose over a run (`acousticStepsOnThreads`): the thread count of most acoustic steps,
 * then the others, e.g. "2 of 2 threads (1 thread for 40 of 20513 acoustic steps)"; "1 of 1 threads" without a pool.
 */
function threadsUsed(onThreads: readonly number[], threads: number, steps: number): string {
  const most = onThreads.length ? onThreads.indexOf(Math.max(...onThreads)) : 1;
  const others = onThreads.flatMap((n, t) =>
    n > 0 && t !== most ? [`${t} thread${t > 1 ? 's' : ''} for ${n} of ${steps} acoustic steps`] : [],
  );
  return `${most} of ${threads} threads${others.length ? ` (${others.join(', ')})` : ''}`;
}

/** Runs `sim` to `end` on `threads` threads; returns wall and CPU seconds (all threads of the process). */
async function timedRun(
  sim: WeaklyCompressibleFluid,
  threads: number,
  end: number,
): Promise<{ wall: number; cpu: number; used: string }> {
  await sim.startThreads(threads, SPIN);
  applyFuse(sim);
  try {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    sim.run(end);
    const wall = (performance.now() - t0) / 1000;
    const cpuUsage = process.cpuUsage(cpu0);
    // The threads the fluid's passes ran on (the pool's rule, `minWorkPerThread`), step by step.
    let used = threadsUsed(sim.acousticStepsOnThreads, threads, sim.counters.acousticSteps);
    // How often the main thread had to sleep for a worker (adaptive waits: rarely, where the worker has a core).
    const waits = sim.workerPool?.waits;
    if (waits) {
      const all = Object.values(waits);
      const slept = all.reduce((n, w) => n + w.slept, 0);
      const total = all.reduce((n, w) => n + w.slept + w.spun + w.immediate, 0);
      used += `; main thread slept in ${slept} of ${total} waits`;
    }
    return { wall, cpu: (cpuUsage.user + cpuUsage.system) / 1e6, used };
  } finally {
    await sim.stopThreads();
  }
}

/** The A/B mode (see the header). */
async function compare(root: string): Promise<void> {
  const url = pathToFileURL(`${root}/packages/sph/src/index.ts`).href;
  const other = (await import(url)) as typeof current;
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  const sum = (v: number[]): number => v.reduce((a, b) => a + b, 0);
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e3;
  };
  const fields = ['x', 'y', 'vx', 'vy', 'rho', 'drho', 'p', 'vol'] as const;
  for (const threads of THREADS) {
    const sims = { A: other.damBreak({ dp: DP_2D }), B: current.damBreak({ dp: DP_2D }) };
    const ms = { A: { wall: [] as number[], cpu: [] as number[] }, B: { wall: [] as number[], cpu: [] as number[] } };
    for (const sim of Object.values(sims)) {
      await sim.startThreads(threads, SPIN);
      applyFuse(sim);
    }
    try {
      for (let block = 0; sims.A.counters.time < END_2D - 1e-12; block++) {
        for (const name of block % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
          const sim = sims[name];
          const steps0 = sim.counters.acousticSteps;
          const cpu0 = cpuMs();
          const t0 = performance.now();
          for (let k = 0; k < BLOCK; k++) sim.advectionStep(END_2D);
          const steps = sim.counters.acousticSteps - steps0;
          ms[name].wall.push((performance.now() - t0) / steps);
          ms[name].cpu.push((cpuMs() - cpu0) / steps);
        }
      }
      // What each pool's thread rule chose (a checkout from before session 17 does not count it).
      for (const [name, sim] of Object.entries(sims)) {
        if ('acousticStepsOnThreads' in sim)
          console.log(`${name}: ${threadsUsed(sim.acousticStepsOnThreads, threads, sim.counters.acousticSteps)}`);
      }
    } finally {
      for (const sim of Object.values(sims)) await sim.stopThreads();
    }
    let differing = 0;
    const { A: a, B: b } = { A: sims.A.fluid, B: sims.B.fluid };
    for (const f of fields) for (let i = 0; i < a.count; i++) if (!Object.is(a[f][i], b[f][i])) differing++;
    const ratio = (f: (v: number[]) => number, key: 'wall' | 'cpu'): string =>
      `A ${f(ms.A[key]).toFixed(3)} / B ${f(ms.B[key]).toFixed(3)} (B/A ${(f(ms.B[key]) / f(ms.A[key])).toFixed(3)})`;
    console.log(
      `${threads} thread(s), ${ms.A.wall.length} blocks of ${BLOCK} advection steps each, ms per acoustic step: ` +
        `wall median ${ratio(median, 'wall')}, wall summed over blocks ${ratio(sum, 'wall')}, CPU median ${ratio(median, 'cpu')}; ` +
        `differing values ${differing}`,
    );
  }
}

async function measure(
  label: string,
  sim: WeaklyCompressibleFluid,
  threads: number,
  end: number,
  references: [string, number][],
): Promise<void> {
  const fluidCount = sim.fluid.count;
  console.log(
    `\n${label}, ${threads} thread(s), ${sim.backend} backend: ${fluidCount} fluid / ${sim.wall.count} wall particles, end time ${end}`,
  );
  // process.cpuUsage covers every thread of the process, workers included.
  const { wall, cpu, used } = await timedRun(sim, threads, end);
  const { advectionSteps, acousticSteps } = sim.counters;
  console.log(`the fluid's passes ran on ${used} (the pool's thread rule)`);
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

/** What a C++ run printed on its `[bench]` line. */
interface CppRun {
  fluid: number;
  acoustic: number;
  computeS: number;
  mups: number;
}

/** The first file named `name` below `dir` (depth-first), or null. */
function findFile(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    } else if (entry === name) return path;
  }
  return null;
}

/** Runs a SPHinXsys dam break from its bin/ folder with the bench patch's switches; parses its `[bench]` line. */
function runCpp(binary: string, threads: number, end: number, dp?: number): CppRun {
  const env: NodeJS.ProcessEnv = { ...process.env, SPH_THREADS: String(threads), SPH_END_TIME: String(end) };
  if (dp !== undefined) env.SPH_DP = String(dp);
  const result = spawnSync(binary, ['--state_recording=0'], {
    cwd: dirname(binary),
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const line = result.stdout.split('\n').find((l) => l.startsWith('[bench] fluid '));
  if (!line) throw new Error(`${binary} printed no [bench] line (exit ${result.status}): ${result.stderr.slice(-500)}`);
  const field = (name: string): number => Number(new RegExp(` ${name} ([-0-9.e+]+)`).exec(line)?.[1]);
  return {
    fluid: field('fluid'),
    acoustic: field('acoustic'),
    computeS: field('compute_minus_io_s'),
    mups: field('Mups'),
  };
}

/** Race mode (see the header). */
async function race(dirs: string[]): Promise<void> {
  const rounds = Number(process.env.SPH_BENCH_ROUNDS ?? 2);
  const end2d = Number(process.env.SPH_BENCH_RACE_2D_END ?? 20);
  const endFine = Number(process.env.SPH_BENCH_RACE_FINE_END ?? 4);
  const end3d = Number(process.env.SPH_BENCH_RACE_3D_END ?? 20);
  const wanted = (process.env.SPH_BENCH_RACE_ROWS ?? '1,2,3,4').split(',').map(Number);
  const builds = dirs.map((dir) => {
    const b2 = findFile(dir, 'test_2d_dambreak');
    const b3 = findFile(dir, 'test_3d_dambreak');
    if (!b2 || !b3) throw new Error(`no test_2d_dambreak / test_3d_dambreak below ${dir}`);
    return { dir, b2, b3 };
  });
  const rows = [
    { n: 1, label: '2D dp 0.025, 1 thread', d3: false, dp: 0.025, threads: 1, end: end2d },
    { n: 2, label: '2D dp 0.025, 2 threads', d3: false, dp: 0.025, threads: 2, end: end2d },
    { n: 3, label: '2D dp 0.0125, 2 threads', d3: false, dp: 0.0125, threads: 2, end: endFine },
    { n: 4, label: '3D dp 0.05, 2 threads', d3: true, dp: 0.05, threads: 2, end: end3d },
  ].filter((r) => wanted.includes(r.n));
  const median = (v: number[]): number => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  console.log(
    `race: builds ${builds.map((b) => b.dir).join(', ')}; ours on backend ${resolveBackend()}; ${rounds} rounds`,
  );
  const summary: string[] = [];
  for (const row of rows) {
    console.log(
      `${row.label}: load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const ratios: number[] = [];
    let skipped = false;
    for (let round = 1; round <= rounds && !skipped; round++) {
      const cpp = builds.map((b) =>
        runCpp(row.d3 ? b.b3 : b.b2, row.threads, row.end, row.dp === 0.025 || row.d3 ? undefined : row.dp),
      );
      const sim = row.d3 ? damBreak3d({ dp: row.dp }) : damBreak({ dp: row.dp });
      if (cpp.some((c) => c.fluid !== sim.fluid.count)) {
        console.log(
          `${row.label}: C++ has ${cpp.map((c) => c.fluid).join('/')} fluid particles, ours ${sim.fluid.count}: skipped (SPH_DP not read?)`,
        );
        skipped = true;
        break;
      }
      const { wall, cpu, used } = await timedRun(sim, row.threads, row.end);
      const ours = (sim.fluid.count * sim.counters.acousticSteps) / wall / 1e6;
      const best = Math.max(...cpp.map((c) => c.mups));
      ratios.push(ours / best);
      console.log(
        `${row.label}, round ${round}: C++ ${cpp.map((c, k) => `[${k + 1}] ${c.mups.toFixed(3)} M/s (${c.acoustic} acoustic steps, ${c.computeS.toFixed(1)} s)`).join(', ')}; ` +
          `ours ${ours.toFixed(3)} M/s (${sim.counters.acousticSteps} acoustic steps, ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU, ` +
          `ran on ${used}); ratio ${(ours / best).toFixed(2)}`,
      );
    }
    if (ratios.length)
      summary.push(
        `${row.label}: ratio ours ÷ C++ ${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)})`,
      );
  }
  console.log(`\n${summary.join('\n')}`);
}

/** Thread-rule mode (see the header). */
async function threadRule(spacings: number[]): Promise<void> {
  const rounds = Number(process.env.SPH_BENCH_ROUNDS ?? 1);
  console.log(
    `thread rule: backend ${resolveBackend()}, end time ${END_2D}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (let round = 1; round <= rounds; round++) {
    for (const dp of spacings) {
      for (const threads of THREADS) {
        const sim = damBreak({ dp });
        sim.minWorkPerThread = 0;
        const { wall, cpu } = await timedRun(sim, threads, END_2D);
        const steps = sim.counters.acousticSteps;
        console.log(
          `round ${round}, dp ${dp}, ${threads} thread(s): ${sim.fluid.count} fluid particles, ${sim.workPerPass} work units per pass; ` +
            `ms per acoustic step: wall ${((1000 * wall) / steps).toFixed(3)}, CPU ${((1000 * cpu) / steps).toFixed(3)} (${steps} steps)`,
        );
      }
    }
  }
}

const RACE = process.env.SPH_BENCH_RACE;
const WORK = process.env.SPH_BENCH_WORK;
if (RACE) await race(RACE.split(','));
else if (WORK) await threadRule(WORK.split(',').map(Number));
else if (COMPARE) await compare(COMPARE);
else {
  // SPH_BENCH_BACKENDS=ts,wasm: the backends alternate in this process (SPH_BENCH_ROUNDS rounds, default 1).
  const backends = (process.env.SPH_BENCH_BACKENDS ?? resolveBackend())
    .split(',')
    .map((b) => resolveBackend(b as FluidBackend));
  const rounds = Number(process.env.SPH_BENCH_ROUNDS ?? 1);
  const saved = process.env.SPH_BACKEND;
  /** Builds a case on `backend` (the cases read SPH_BACKEND). */
  const on = <T>(backend: FluidBackend, build: () => T): T => {
    process.env.SPH_BACKEND = backend;
    try {
      return build();
    } finally {
      if (saved === undefined) delete process.env.SPH_BACKEND;
      else process.env.SPH_BACKEND = saved;
    }
  };
  for (let round = 1; round <= rounds; round++) {
    for (const backend of backends) {
      for (const threads of THREADS) {
        await measure(
          `2D dam break, dp ${DP_2D}`,
          on(backend, () => damBreak({ dp: DP_2D })),
          threads,
          END_2D,
          [
            ['1 thread', 1.46],
            ['2 threads', 2.57],
          ],
        );
      }
    }
    if (END_3D > 0) {
      for (const backend of backends) {
        for (const threads of process.env.SPH_BENCH_BACKENDS ? THREADS : [Math.max(...THREADS)]) {
          await measure(
            '3D dam break, dp 0.05',
            on(backend, () => damBreak3d({ dp: 0.05 })),
            threads,
            END_3D,
            [['2 threads', 0.54]],
          );
        }
      }
    }
  }
}
