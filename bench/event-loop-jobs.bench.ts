// `npm run bench -- event-loop-jobs`: issue 14 item 10, "requests stay fast while a job runs". Runs the real server in
// this process (the embedded default: PGlite in memory, jobs worked in-process, CPU work in the CPU pool's threads,
// files in a temporary folder), seeds a workspace with EVENT_LOOP_BENCH_PROJECTS projects (default 200) and times
// `GET /api/devices/:id/projects/overview`, one request after another with a 20 ms pause (a user clicking about):
//   with jobs — while a 100-patient cohort order (EVENT_LOOP_BENCH_COHORT) and a device version of one 200 MB binary
//               STL (4,000,000 triangles; EVENT_LOOP_BENCH_STL_MB) are processed, from both created until both ready;
//   no job    — the reference: the same requests with no job running, half before the jobs and half after them (the
//               machine's drift hits both alike).
// Prints p50, p95 and max of each and the ratio of the p95s (target ≤ 1.5). The STL is uploaded over tus before any
// request is timed (the upload is not a job). EVENT_LOOP_BENCH_ROUNDS (default 2) repeats upload, reference, jobs,
// reference: this machine's load moves within a minute, so one round can land in a busy spell. Also printed: the
// event-loop delay and utilisation (the share of time the main thread was busy) while the jobs run. Figures go to
// docs/benchmarks.md, "Requests while jobs run".
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { seedProjects, signedInWorkspace, startBenchServer, uploadOverTus } from './benchServer';
import { bumpySphere } from './bumpySphere';
import { writeBinaryStl } from '@insilico/mesh';
import { createDefaultCriteria } from '@insilico/anatomy';

const PROJECTS = Number(process.env.EVENT_LOOP_BENCH_PROJECTS ?? 200);
const COHORT = Number(process.env.EVENT_LOOP_BENCH_COHORT ?? 100);
const STL_MB = Number(process.env.EVENT_LOOP_BENCH_STL_MB ?? 200);
const REFERENCE_REQUESTS = Number(process.env.EVENT_LOOP_BENCH_REFERENCE ?? 150);
const ROUNDS = Number(process.env.EVENT_LOOP_BENCH_ROUNDS ?? 2);
const TARGET_RATIO = 1.5;

const quantile = (xs: readonly number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const summary = (xs: readonly number[]): string =>
  `p50 ${quantile(xs, 0.5).toFixed(1).padStart(7)} ms   p95 ${quantile(xs, 0.95).toFixed(1).padStart(7)} ms   ` +
  `max ${Math.max(...xs)
    .toFixed(1)
    .padStart(7)} ms   (${xs.length} requests)`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const server = await startBenchServer('event-loop-jobs', { jobPollSeconds: 0.5 });
const { origin, context } = server;
try {
  const { userId, deviceId, cookie } = await signedInWorkspace(server, 'bench-event-loop', 'Bench valve');
  const headers = { cookie, origin, 'content-type': 'application/json' };
  const base = `${origin}/api/devices/${deviceId}`;
  await seedProjects(server, { userId, deviceId }, PROJECTS, 'Bench project');

  async function overview(): Promise<number> {
    const t0 = performance.now();
    const response = await fetch(`${base}/projects/overview`, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`overview answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    return performance.now() - t0;
  }
  async function reference(count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      times.push(await overview());
      await pause(20);
    }
    return times;
  }

  // The STL: a bumpy sphere of 2 · rings · around triangles, 50 bytes each.
  const around = 2000;
  const rings = Math.max(1, Math.round((STL_MB * 1e6) / 50 / 2 / around));
  const stl = writeBinaryStl(bumpySphere({ ringCount: rings, ringSize: around }));
  const triangles = (stl.length - 84) / 50;
  const upload = () => uploadOverTus(server, { deviceId, cookie }, 'large-part.stl', stl);

  /** Both jobs at once; the overview is timed from both created until both ready. */
  async function withJobs(uploadId: string, round: number) {
    const t0 = performance.now();
    const version = await fetch(`${base}/device-versions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Large part ${round}`, uploadIds: [uploadId] }),
    });
    if (version.status !== 201) throw new Error(`version answered ${version.status}: ${await version.text()}`);
    const versionId = ((await version.json()) as { id: string }).id;
    const order = await fetch(`${base}/cohorts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Bench cohort ${round}`, size: COHORT, criteria: createDefaultCriteria() }),
    });
    if (order.status !== 201) throw new Error(`order answered ${order.status}: ${await order.text()}`);
    const cohortId = ((await order.json()) as { id: string }).id;

    const times: number[] = [];
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const elu0 = performance.eventLoopUtilization();
    const ended: { version?: number; cohort?: number } = {};
    const watch = (async () => {
      while (ended.version === undefined || ended.cohort === undefined) {
        await pause(250);
        if (ended.version === undefined) {
          const state = (await (await fetch(`${base}/device-versions/${versionId}`, { headers })).json()) as {
            status: string;
          };
          if (state.status === 'failed') throw new Error('the device version failed');
          if (state.status === 'ready') ended.version = performance.now() - t0;
        }
        if (ended.cohort === undefined) {
          const state = (await (await fetch(`${base}/cohorts/${cohortId}`, { headers })).json()) as {
            status: string;
          };
          if (state.status === 'failed') throw new Error('the cohort order failed');
          if (state.status === 'ready') ended.cohort = performance.now() - t0;
        }
      }
    })();
    let watching = true;
    void watch.finally(() => (watching = false)).catch(() => undefined);
    while (watching) {
      times.push(await overview());
      await pause(20);
    }
    await watch;
    loopDelay.disable();
    return {
      times,
      versionS: (ended.version ?? NaN) / 1000,
      cohortS: (ended.cohort ?? NaN) / 1000,
      delayP99: loopDelay.percentile(99) / 1e6,
      delayMax: loopDelay.max / 1e6,
      utilisation: performance.eventLoopUtilization(elu0).utilization,
    };
  }

  console.log(
    `${PROJECTS} projects; STL ${(stl.length / 1e6).toFixed(0)} MB (${triangles.toLocaleString('en')} triangles); ` +
      `CPU pool: ${context.cpu.concurrency} thread(s); ${ROUNDS} round(s)`,
  );
  await reference(10); // warm-up (JIT, caches), not counted
  const allJobs: number[] = [];
  const allReference: number[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const uploadId = await upload(); // not timed: the upload is not a job
    const elu0 = performance.eventLoopUtilization();
    const before = await reference(Math.ceil(REFERENCE_REQUESTS / 2));
    const referenceUtilisation = performance.eventLoopUtilization(elu0).utilization;
    const jobs = await withJobs(uploadId, round);
    const after = await reference(Math.floor(REFERENCE_REQUESTS / 2));
    const noJob = [...before, ...after];
    const ratio = quantile(jobs.times, 0.95) / quantile(noJob, 0.95);
    allJobs.push(...jobs.times);
    allReference.push(...noJob);
    ratios.push(ratio);
    console.log(
      `\nround ${round}: STL version ready after ${jobs.versionS.toFixed(1)} s, ` +
        `${COHORT}-patient cohort ready after ${jobs.cohortS.toFixed(1)} s; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`  GET …/projects/overview while both jobs run   ${summary(jobs.times)}`);
    console.log(`  reference: no job running (before + after)    ${summary(noJob)}`);
    console.log(
      `  event loop while the jobs run: delay p99 ${jobs.delayP99.toFixed(0)} ms, max ${jobs.delayMax.toFixed(0)} ms; ` +
        `utilisation ${(100 * jobs.utilisation).toFixed(0)} % (no job: ${(100 * referenceUtilisation).toFixed(0)} %)`,
    );
    console.log(`  ratio p95 with jobs / no job: ${ratio.toFixed(2)}`);
  }
  const pooled = quantile(allJobs, 0.95) / quantile(allReference, 0.95);
  console.log(`\nall rounds: with jobs ${summary(allJobs)}`);
  console.log(`            no job    ${summary(allReference)}`);
  console.log(
    `ratio p95 with jobs / no job: all rounds ${pooled.toFixed(2)}, median of rounds ${quantile(ratios, 0.5).toFixed(2)}   ` +
      `target ≤ ${TARGET_RATIO} ${pooled <= TARGET_RATIO ? '✔' : '✘'}`,
  );
} finally {
  await server.close();
}
