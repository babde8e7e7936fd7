// `npm run bench -- trial-fanout`: issue 17's fan-out overhead per patient of a trial — the work a trial adds around
// each patient's simulation — against the simulation itself, on the real server (PGlite in memory, jobs in-process,
// the job poll at 0.5 s). A TRIAL_PATIENTS-patient cohort (5 or 10, default 5) is ordered, a TRIAL_KIND trial
// (default fluid) at TRIAL_RESOLUTION (default test, the operator's seconds-long switch; coarse takes minutes per
// patient) runs to the end, and per patient the bench reads:
//   preparation — the `trial.patient` job: placement by rule in the CPU pool, the room and its scene, the case
//                 building and the run's row and job (queueing the run);
//   extraction  — reading the outcomes of the finished run again (TrialService.simulationFinished, timed here);
//   run         — the `simulation.run` job's time less the extraction it includes (the engine and its frames).
// With TRIAL_PREPARE_ONLY=1 the trial is cancelled once every patient is prepared (a coarse run takes minutes): only
// the preparations are reported, to set against the template bench's whole-run time at that resolution.
// Reported: each per patient (median, max) and the ratio (preparation + extraction) / run over the trial (target
// ≤ 5 % at the coarse resolution), and the trial's wall time. Queue waits are left out: they are the throughput of
// the workspace's slots, not work a patient adds.
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
import { jobRuns, simulations, trialPatients } from '../apps/server/src/db/schema';
import { insertVersionWithModel } from '../apps/server/test/factories/room-rows';
import type { TestServer } from '../apps/server/test/helpers/test-server';
import { signedInWorkspace, startBenchServer, type BenchServer } from './benchServer';

const patients = Number(process.env.TRIAL_PATIENTS ?? 5);
const kind = process.env.TRIAL_KIND ?? 'fluid';
const resolution = process.env.TRIAL_RESOLUTION ?? 'test';
const prepareOnly = process.env.TRIAL_PREPARE_ONLY === '1';
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
  return { api, base, trialId: trial.id as string, started };
}

/** Polls the trial until it is no longer running (or `stop` says so); answers its counts. */
async function waitForTrial(
  { api, base, trialId }: Awaited<ReturnType<typeof startTrial>>,
  stop?: () => Promise<boolean>,
): Promise<Record<string, number>> {
  for (;;) {
    const now = await api('GET', `${base}/${trialId}`);
    if (now.status !== 'running' || (stop && (await stop()))) return now.counts as Record<string, number>;
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
  const server = await startBenchServer('trial-fanout', { jobPollSeconds: 0.5 });
  try {
    const trial = await startTrial(server);
    const { api, base, trialId, started } = trial;
    const orm = server.context.db.orm;
    // With TRIAL_PREPARE_ONLY, done once every patient has its run.
    const prepared = async () =>
      (
        await orm
          .select({ id: trialPatients.patientId })
          .from(trialPatients)
          .where(and(eq(trialPatients.trialId, trialId), sql`${trialPatients.simulationId} is null`))
      ).length === 0;
    const counts = await waitForTrial(trial, prepareOnly ? prepared : undefined);
    const wall = (performance.now() - started) / 1000;
    if (prepareOnly) {
      await api('POST', `${base}/${trialId}/cancel`, {});
      const jobs = await orm
        .select({ startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt })
        .from(jobRuns)
        .where(and(eq(jobRuns.kind, 'trial.patient'), sql`${jobRuns.data}->>'trialId' = ${trialId}`));
      const times = jobs.map((j) => seconds(j.startedAt, j.finishedAt)).filter(Number.isFinite);
      console.log(
        `${kind} trial at the ${resolution} resolution, ${patients} patients prepared in ${fmt(wall)} s ` +
          `(${server.context.cpu.concurrency} CPU-pool thread(s)); preparation per patient: ` +
          `${times.map(fmt).join(', ')} s, median ${fmt(median(times))} s`,
      );
      return;
    }

    const rows = await orm.select().from(trialPatients).where(eq(trialPatients.trialId, trialId));
    const prepare = await orm
      .select({ data: jobRuns.data, startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt })
      .from(jobRuns)
      .where(and(eq(jobRuns.kind, 'trial.patient'), sql`${jobRuns.data}->>'trialId' = ${trialId}`));
    const simulationIds = rows.flatMap((r) => (r.simulationId ? [r.simulationId] : []));
    const runs = await orm
      .select({ id: simulations.id, startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt })
      .from(simulations)
      .innerJoin(jobRuns, eq(jobRuns.id, simulations.jobId))
      .where(inArray(simulations.id, simulationIds));
    const table: { patient: string; prepare: number; extract: number; run: number }[] = [];
    for (const row of rows) {
      const job = prepare.find((p) => (p.data as { patientId?: string }).patientId === row.patientId);
      const run = runs.find((r) => r.id === row.simulationId);
      if (!job || !run || !row.outcomes) continue;
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
        patient: row.patientId,
        prepare: seconds(job.startedAt, job.finishedAt),
        extract,
        run: seconds(run.startedAt, run.finishedAt) - extract,
      });
    }
    console.log(
      `${kind} trial at the ${resolution} resolution, ${patients} patients: ${JSON.stringify(counts)}, ` +
        `wall ${fmt(wall)} s (${server.context.cpu.concurrency} CPU-pool thread(s))`,
    );
    console.log('patient        preparation s  extraction ms  run s   overhead %');
    for (const r of table)
      console.log(
        `${r.patient.padEnd(14)} ${fmt(r.prepare).padStart(13)} ${fmt(1000 * r.extract).padStart(13)} ${fmt(r.run).padStart(6)}` +
          `   ${fmt((100 * (r.prepare + r.extract)) / r.run).padStart(8)}`,
      );
    if (table.length === 0) throw new Error('no patient finished with outcomes');
    const sum = (f: (r: (typeof table)[number]) => number) => table.reduce((s, r) => s + f(r), 0);
    console.log(
      `median preparation ${fmt(median(table.map((r) => r.prepare)))} s (max ${fmt(Math.max(...table.map((r) => r.prepare)))}), ` +
        `median extraction ${fmt(1000 * median(table.map((r) => r.extract)))} ms, median run ${fmt(median(table.map((r) => r.run)))} s; ` +
        `overhead over the trial ${fmt((100 * (sum((r) => r.prepare) + sum((r) => r.extract))) / sum((r) => r.run))} % of the run time ` +
        `(target ≤ 5 % at the coarse resolution)`,
    );
  } finally {
    await server.close();
  }
}

await main();
