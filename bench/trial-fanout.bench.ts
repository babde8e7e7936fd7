// `npm run bench -- trial-fanout`: issue 17's fan-out overhead per patient of a trial — the work a trial adds around
// each patient's simulation — against a single simulation of the same case, on the real server (PGlite in memory,
// jobs in-process, the job poll at 0.5 s). A TRIAL_PATIENTS-patient cohort (default 5) is ordered, a TRIAL_KIND trial
// (default fluid) at TRIAL_RESOLUTION (default test, the operator's seconds-long switch; coarse takes minutes per
// patient) runs to the end, and per patient the bench reads:
//   queueing    — the `trial.patient` job's wait from its enqueue to its start (the hop a single run does not have;
//                 beyond the first patients it also holds the wait for a free job slot: throughput, not overhead);
//   preparation — the `trial.patient` job less the `SimulationService.create` it calls (timed by wrapping it): the
//                 placement by rule in the CPU pool, the room and its scene, the bookkeeping;
//   case        — that `create` (the case building and the run's row and job: what a single run does too);
//   extraction  — reading the outcomes of the finished run again (TrialService.simulationFinished, timed here);
//   run         — the `simulation.run` job's time less the extraction it includes (the engine and its frames).
// Then, in the same process, one **single simulation** of the first finished patient's case outside the trial (a new
// room with the trial room's scene, `POST …/simulations` as the results page does): its create (request time) and
// its run job. Reported: per patient the trial's added work (queueing of the first patient + preparation +
// extraction) against the single run (create + run): the target is ≤ 5 % at the coarse resolution.
// TRIAL_SLOTS sets the workspace's simulation slots (default the product's 2; 1: one run at a time, each alone on the
// CPU pool as the single run is).
// With TRIAL_RUNS=n the trial is cancelled once n patients are done (every patient is prepared by then: the
// preparations run ahead of the runs), and the runs' figures are over those n.
// With TRIAL_PREPARE_ONLY=1 the trial is cancelled once every patient is prepared (a coarse run takes minutes): only
// the preparations are reported.
//
// With TRIAL_WORKERS (e.g. `1,2`) and DATABASE_URL or TEST_DATABASE_URL naming a PostgreSQL server, the bench instead
// measures throughput against workers (issue 17): per count, a database of its own, the server without in-process
// jobs and that many `npm run worker` processes beside it (sharing its files), the same trial run to the end; it
// prints each wall time and the ratio to the first count. The workspace's simulation slots are raised to the patient
// count so that the slots, not the workers, never limit.
import { spawn, type ChildProcess } from 'node:child_process';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { writeBinaryStl } from '../packages/mesh/src/index';
import { ringDeviceMesh } from '../packages/scenarios/src/index';
import { createDefaultCriteria } from '../packages/anatomy/src/index';
import { jobRuns, simulations as simulationRows, trialPatients, trials } from '../apps/server/src/db/schema';
import { insertVersionWithModel } from '../apps/server/test/factories/room-rows';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { signedInWorkspace, startBenchServer, type BenchServer } from './benchServer';

const patients = Number(process.env.TRIAL_PATIENTS ?? 5);
const kind = process.env.TRIAL_KIND ?? 'fluid';
const resolution = process.env.TRIAL_RESOLUTION ?? 'test';
const prepareOnly = process.env.TRIAL_PREPARE_ONLY === '1';
/** With TRIAL_RUNS=n the trial is cancelled once n patients are done (coarse runs take minutes each). */
const runsWanted = process.env.TRIAL_RUNS ? Number(process.env.TRIAL_RUNS) : null;
/** The workspace's simulation slots (default: the product's); 1 runs the patients one after another. */
const slots = process.env.TRIAL_SLOTS ? Number(process.env.TRIAL_SLOTS) : undefined;
const workerCounts = (process.env.TRIAL_WORKERS ?? '')
  .split(',')
  .filter((w) => w.trim() !== '')
  .map(Number);
const postgresUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || null;

const seconds = (a: Date | null, b: Date | null) => (a && b ? (b.getTime() - a.getTime()) / 1000 : Number.NaN);
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (v: number) => (v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A running trial of TRIAL_PATIENTS patients on `server`: the owner's API, the trials' path and the trial's id. */
async function startTrial(server: BenchServer) {
  const owner = await signedInWorkspace(server, `trial-${Date.now()}`, 'Trial valve');
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: {
        cookie: owner.cookie,
        origin: server.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const order = await api('POST', `/api/devices/${owner.deviceId}/cohorts`, {
    name: 'Fan-out cohort',
    size: patients,
    criteria: createDefaultCriteria(),
  });
  for (;;) {
    const cohort = await api('GET', `/api/devices/${owner.deviceId}/cohorts/${order.id as string}`);
    if (cohort.status === 'ready') break;
    if (cohort.status === 'failed') throw new Error('the cohort failed');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const project = await server.context.projectCreation.create(owner.userId, owner.deviceId, {
    name: 'Fan-out bench',
    developmentStage: 'concept_and_design_feasibility',
    questionId: null,
    cohortIds: [order.id as string],
    imagingDatasetIds: [],
    versionIds: [],
    teamUserIds: [],
    basedOnProjectId: null,
  });
  // The factory needs only the server's context (the database and the blob store).
  const { versionId } = await insertVersionWithModel(server as unknown as TestServer, owner.deviceId, {
    name: 'Ring valve',
    status: 'ready',
    projectId: project.id,
    stl: writeBinaryStl(ringDeviceMesh(8, 1.5)),
  });
  if (resolution === 'test') await server.context.simulations.setTestResolution(owner.deviceId, true);
  const base = `/api/devices/${owner.deviceId}/projects/${project.id}/trials`;
  const started = performance.now();
  const trial = await api('POST', base, {
    name: 'Fan-out',
    cohortId: order.id,
    versionId,
    kind,
    resolution,
    placement: { landmark: 'aortic_annulus', depth_mm: 2 },
  });
  const projectPath = `/api/devices/${owner.deviceId}/projects/${project.id}`;
  return { api, base, projectPath, cohortId: order.id as string, trialId: trial.id as string, started };
}

/** Polls the trial until it is no longer running (or `stop` says so); answers its counts. */
async function waitForTrial(
  { api, base, trialId }: Awaited<ReturnType<typeof startTrial>>,
  stop?: (counts: Record<string, number>) => Promise<boolean>,
): Promise<Record<string, number>> {
  for (;;) {
    const now = await api('GET', `${base}/${trialId}`);
    const counts = now.counts as Record<string, number>;
    if (now.status !== 'running' || (stop && (await stop(counts)))) return counts;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Throughput against `npm run worker` processes on PostgreSQL: the same trial per worker count, wall times and ratios. */
async function workerScaling(databaseUrl: string) {
  const walls: number[] = [];
  for (const count of workerCounts) {
    const name = `insilico_trial_bench_${process.pid}_${count}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const server = await startBenchServer('trial-workers', {
      databaseUrl: url.href,
      jobsInProcess: false,
      jobPollSeconds: 0.5,
      simulationsPerWorkspace: patients,
    });
    const workers: ChildProcess[] = [];
    try {
      for (let w = 0; w < count; w++)
        workers.push(
          spawn('node', ['--import', 'tsx', 'apps/server/src/jobs/worker.ts'], {
            stdio: ['ignore', 'ignore', 'inherit'],
            env: {
              ...process.env,
              DATABASE_URL: url.href,
              DATA_DIR: server.dataDir,
              PUBLIC_URL: server.origin,
              JOB_POLL_SECONDS: '0.5',
              SIMULATIONS_PER_WORKSPACE: String(patients),
              LOG_LEVEL: 'silent',
            },
          }),
        );
      const trial = await startTrial(server);
      const counts = await waitForTrial(trial);
      const wall = (performance.now() - trial.started) / 1000;
      walls.push(wall);
      console.log(
        `${count} worker process(es): ${kind} trial of ${patients} patients at the ${resolution} resolution, ` +
          `${JSON.stringify(counts)}, wall ${fmt(wall)} s` +
          (walls.length > 1 ? `, ${fmt(walls[0]! / wall)}× the throughput of ${workerCounts[0]} worker(s)` : ''),
      );
    } finally {
      for (const worker of workers) worker.kill('SIGTERM');
      await Promise.all(
        workers.map((worker) =>
          worker.exitCode === null ? new Promise((resolve) => worker.once('exit', resolve)) : Promise.resolve(),
        ),
      );
      await server.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

async function main() {
  if (workerCounts.length > 0) {
    if (!postgresUrl) throw new Error('TRIAL_WORKERS needs PostgreSQL: set DATABASE_URL or TEST_DATABASE_URL');
    await workerScaling(postgresUrl);
    return;
  }
  const server = await startBenchServer('trial-fanout', {
    jobPollSeconds: 0.5,
    ...(slots === undefined ? {} : { simulationsPerWorkspace: slots }),
  });
  try {
    // Every case building timed, by room: the trial's patients' and the single run's.
    const createTimes = new Map<string, number>();
    const simulations = server.context.simulations;
    const create = simulations.create.bind(simulations);
    simulations.create = async (...args: Parameters<typeof create>) => {
      const t0 = performance.now();
      try {
        return await create(...args);
      } finally {
        createTimes.set(args[3], (performance.now() - t0) / 1000);
      }
    };
    const trial = await startTrial(server);
    const { api, base, projectPath, trialId, started } = trial;
    const orm = server.context.db.orm;
    // With TRIAL_PREPARE_ONLY, done once every patient has its run.
    const prepared = async () =>
      (
        await orm
          .select({ id: trialPatients.patientId })
          .from(trialPatients)
          .where(and(eq(trialPatients.trialId, trialId), sql`${trialPatients.simulationId} is null`))
      ).length === 0;
    const enoughDone = async (counts: Record<string, number>) => runsWanted !== null && counts.done! >= runsWanted;
    const counts = await waitForTrial(trial, prepareOnly ? prepared : enoughDone);
    const wall = (performance.now() - started) / 1000;
    if (runsWanted !== null && counts.done! < patients) {
      // The rest is cancelled, and waited for: the single run below must not share the CPU with a stopping run.
      await api('POST', `${base}/${trialId}/cancel`, {});
      for (let i = 0; i < 600; i++) {
        const open = await orm
          .select({ id: simulationRows.id })
          .from(simulationRows)
          .innerJoin(trialPatients, eq(trialPatients.simulationId, simulationRows.id))
          .where(and(eq(trialPatients.trialId, trialId), inArray(simulationRows.status, ['queued', 'running'])));
        if (open.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    const prepare = await orm
      .select({
        data: jobRuns.data,
        createdAt: jobRuns.createdAt,
        startedAt: jobRuns.startedAt,
        finishedAt: jobRuns.finishedAt,
      })
      .from(jobRuns)
      .where(and(eq(jobRuns.kind, 'trial.patient'), sql`${jobRuns.data}->>'trialId' = ${trialId}`));
    if (prepareOnly) {
      await api('POST', `${base}/${trialId}/cancel`, {});
      const times = prepare.map((j) => seconds(j.startedAt, j.finishedAt)).filter(Number.isFinite);
      console.log(
        `${kind} trial at the ${resolution} resolution, ${patients} patients prepared in ${fmt(wall)} s ` +
          `(${server.context.cpu.concurrency} CPU-pool thread(s)); preparation per patient: ` +
          `${times.map(fmt).join(', ')} s, median ${fmt(median(times))} s`,
      );
      return;
    }

    const rows = await orm.select().from(trialPatients).where(eq(trialPatients.trialId, trialId));
    const simulationIds = rows.flatMap((r) => (r.simulationId ? [r.simulationId] : []));
    const runs = await orm
      .select({ id: simulationRows.id, startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt })
      .from(simulationRows)
      .innerJoin(jobRuns, eq(jobRuns.id, simulationRows.jobId))
      .where(inArray(simulationRows.id, simulationIds));
    const table: {
      patient: string;
      queue: number;
      prepare: number;
      build: number;
      extract: number | null;
      run: number | null;
    }[] = [];
    for (const row of rows) {
      const job = prepare.find((p) => (p.data as { patientId?: string }).patientId === row.patientId);
      const build = row.roomId ? createTimes.get(row.roomId) : undefined;
      if (!job?.finishedAt || build === undefined) continue;
      const prepared = { patient: row.patientId, queue: seconds(job.createdAt, job.startedAt), build };
      const preparation = seconds(job.startedAt, job.finishedAt) - build;
      const run = runs.find((r) => r.id === row.simulationId);
      if (!run || !row.outcomes) {
        table.push({ ...prepared, prepare: preparation, extract: null, run: null });
        continue;
      }
      // Extraction again, timed: the stored outcomes are cleared and read from the run's outputs.
      await orm
        .update(trialPatients)
        .set({ outcomes: null })
        .where(and(eq(trialPatients.trialId, trialId), eq(trialPatients.patientId, row.patientId)));
      const t0 = performance.now();
      await server.context.trials.simulationFinished(row.simulationId!);
      const extract = (performance.now() - t0) / 1000;
      const [again] = await orm
        .select({ outcomes: trialPatients.outcomes })
        .from(trialPatients)
        .where(and(eq(trialPatients.trialId, trialId), eq(trialPatients.patientId, row.patientId)));
      if (!again?.outcomes) throw new Error(`the outcomes of ${row.patientId} were not read again`);
      table.push({
        ...prepared,
        prepare: preparation,
        extract,
        run: seconds(run.startedAt, run.finishedAt) - extract,
      });
    }
    const done = table.flatMap((r) =>
      r.extract !== null && r.run !== null ? [{ ...r, extract: r.extract, run: r.run }] : [],
    );
    if (done.length === 0) throw new Error('no patient finished with outcomes');
    console.log(
      `${kind} trial at the ${resolution} resolution, ${patients} patients: ${JSON.stringify(counts)}, ` +
        `wall ${fmt(wall)} s (${server.context.cpu.concurrency} CPU-pool thread(s))`,
    );
    console.log('patient        queueing s  preparation s  case s   extraction ms  run s');
    for (const r of table)
      console.log(
        `${r.patient.padEnd(14)} ${fmt(r.queue).padStart(10)} ${fmt(r.prepare).padStart(14)} ${fmt(r.build).padStart(7)}` +
          ` ${(r.extract === null ? '-' : fmt(1000 * r.extract)).padStart(15)} ${(r.run === null ? '-' : fmt(r.run)).padStart(6)}`,
      );

    // The single run: the first finished patient's case again, outside the trial, in a room of its own.
    const first = rows.find((r) => r.patientId === done[0]!.patient)!;
    const scene = await api('GET', `${projectPath}/rooms/${first.roomId!}/scene`);
    const room = await api('POST', `${projectPath}/rooms`, {
      cohortId: trial.cohortId,
      patientId: first.patientId,
      name: 'Single run',
    });
    await api('PUT', `${projectPath}/rooms/${room.id as string}/scene`, {
      view: scene.view,
      placements: (scene.placements as Record<string, unknown>[]).map((p) => ({
        versionId: p.versionId,
        transform: p.transform,
        landmark: p.landmark,
      })),
    });
    // The trial's own set-up, as the trial gave it to each patient's run.
    const [setup] = await orm.select({ parameters: trials.parameters }).from(trials).where(eq(trials.id, trialId));
    const t0 = performance.now();
    const single = await api('POST', `${projectPath}/rooms/${room.id as string}/simulations`, {
      kind,
      resolution,
      parameters: setup?.parameters ?? {},
      name: 'Single run',
    });
    const request = (performance.now() - t0) / 1000;
    let singleRun = Number.NaN;
    for (;;) {
      const [now] = await orm
        .select({ status: simulationRows.status, startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt })
        .from(simulationRows)
        .innerJoin(jobRuns, eq(jobRuns.id, simulationRows.jobId))
        .where(eq(simulationRows.id, single.id as string));
      // The run's row settles before its job's (the job finishes after the performer returns): both are waited for.
      if (now?.finishedAt && ['completed', 'failed', 'cancelled'].includes(now.status)) {
        if (now.status !== 'completed') throw new Error(`the single run ended ${now.status}`);
        singleRun = seconds(now.startedAt, now.finishedAt);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const singleTotal = request + singleRun;
    // Every prepared patient's preparation; the extraction of those that ran (the median's, for the others).
    const extraction = median(done.map((r) => r.extract));
    const hop = Math.min(...table.map((r) => r.queue));
    const added = table.map((r) => hop + r.prepare + (r.extract ?? extraction));
    const own = done.find((r) => r.patient === first.patientId)!;
    console.log(
      `single run of ${first.patientId} outside the trial: create (request) ${fmt(request)} s, run ${fmt(singleRun)} s, ` +
        `total ${fmt(singleTotal)} s; the same case in the trial: case ${fmt(own.build)} s, run ${fmt(own.run)} s`,
    );
    console.log(
      `trial's added work per patient (queueing hop ${fmt(hop)} s + preparation + extraction): median ` +
        `${fmt(median(added))} s, max ${fmt(Math.max(...added))} s = median ${fmt((100 * median(added)) / singleTotal)} % ` +
        `(max ${fmt((100 * Math.max(...added)) / singleTotal)} %) of the single run (target ≤ 5 % at the coarse resolution); ` +
        `median preparation ${fmt(median(table.map((r) => r.prepare)))} s over ${table.length} prepared, ` +
        `extraction ${fmt(1000 * extraction)} ms over ${done.length} run(s)`,
    );
  } finally {
    await server.close();
  }
}

await main();
