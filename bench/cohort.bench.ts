// `npm run bench -- cohort`: issue 4's budget "a 100-patient cohort ready, meshes included, in under 15 s", and the
// latency of the live count the order page calls on every change. Runs the real server in this process (PGlite in
// memory, jobs worked in-process, files in a temporary folder) and orders through HTTP with a real session.
// References in the same run:
//   meshes-only — the same patients' meshes built and serialised in a plain loop (no queue, no database, no files):
//                 what the order job costs over the bare computation;
//   count-in-process — countMatches over the population without HTTP: what the endpoint adds to the computation.
// COHORT_BENCH_SIZE (default 100) and COHORT_BENCH_COUNTS (default 50 timed count calls after 5 warm-ups).
// Figures go to docs/benchmarks.md, "Cohort orders".
import {
  buildPatientMeshes,
  countMatches,
  createDefaultCriteria,
  cyclePathology,
  defaultPopulation,
  patientGlb,
  setBodyDimensionRange,
  toggleSex,
  type CohortCriteria,
} from '@insilico/anatomy';
import { orderedPhasesOf } from '../apps/server/src/services/cohort-mesh.service';
import { signedInWorkspace, startBenchServer } from './benchServer';

const SIZE = Number(process.env.COHORT_BENCH_SIZE ?? 100);
const COUNTS = Number(process.env.COHORT_BENCH_COUNTS ?? 50);
const BUDGET_S = 15;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

const server = await startBenchServer('cohort', { jobPollSeconds: 0.5 });
const { origin } = server;
try {
  // A user with a workspace and a session cookie (the sign-in pages are not what is measured).
  const { deviceId, cookie } = await signedInWorkspace(server, 'bench-user', 'Bench valve');
  const headers = {
    cookie,
    origin,
    'content-type': 'application/json',
  };
  const api = (path: string, body?: unknown) =>
    fetch(
      `${origin}${path}`,
      body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) },
    );
  const base = `/api/devices/${deviceId}/cohorts`;

  // --- Live count: HTTP round trip against the computation alone. ---
  const criteria: CohortCriteria = setBodyDimensionRange(
    cyclePathology(toggleSex(createDefaultCriteria(), 'female'), 'heart_failure'),
    'bmi',
    { min: 20, max: 35 },
  );
  const patients = defaultPopulation().patients;
  const http: number[] = [];
  const local: number[] = [];
  for (let i = 0; i < COUNTS + 5; i += 1) {
    const t0 = performance.now();
    const response = await api(`${base}/count`, { criteria });
    if (response.status !== 200) throw new Error(`count answered ${response.status}: ${await response.text()}`);
    await response.json();
    const t1 = performance.now();
    countMatches(patients, criteria);
    const t2 = performance.now();
    if (i >= 5) {
      http.push(t1 - t0);
      local.push(t2 - t1);
    }
  }
  console.log(
    `live count, HTTP round trip (${COUNTS} calls)       median ${median(http).toFixed(2)} ms   p95 ${[...http].sort((a, b) => a - b)[Math.floor(http.length * 0.95)]?.toFixed(2)} ms`,
  );
  console.log(`reference count-in-process (countMatches)      median ${median(local).toFixed(3)} ms`);

  // --- A cohort of SIZE patients, ordered over HTTP, until ready. ---
  const orderCriteria = createDefaultCriteria();
  const t0 = performance.now();
  const ordered = await api(base, { name: 'Benchmark cohort', size: SIZE, criteria: orderCriteria });
  if (ordered.status !== 201) throw new Error(`order answered ${ordered.status}: ${await ordered.text()}`);
  const cohort = (await ordered.json()) as { id: string };
  let status = 'in_progress';
  while (status === 'in_progress') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = ((await (await api(`${base}/${cohort.id}`)).json()) as { status: string }).status;
  }
  const readySeconds = (performance.now() - t0) / 1000;
  if (status !== 'ready') throw new Error(`the order ended ${status}`);
  const page = (await (await api(`${base}/${cohort.id}/patients?pageSize=100`)).json()) as { items: { id: string }[] };
  const cohortPatients = patients.filter((patient) => page.items.some((row) => row.id === patient.id));
  const phases = cohortPatients.reduce((sum, patient) => sum + orderedPhasesOf(patient).length, 0);
  const cine = cohortPatients.filter((patient) => patient.phases.includes('cine_ct')).length;
  console.log(
    `${SIZE}-patient cohort ordered → ready (HTTP, job, meshes)  ${readySeconds.toFixed(2)} s   ` +
      `(${phases} phase meshes; ${cine} patients with cine)   target < ${BUDGET_S} s ${readySeconds < BUDGET_S ? '✔' : '✘'}`,
  );

  // Reference: the same patients' meshes (every phase) built and serialised to GLB in a plain loop.
  const r0 = performance.now();
  let bytes = 0;
  for (const patient of cohortPatients)
    for (const phase of orderedPhasesOf(patient)) bytes += patientGlb(buildPatientMeshes(patient, phase)).byteLength;
  const meshSeconds = (performance.now() - r0) / 1000;
  console.log(
    `reference meshes-only: same ${phases} phases → GLB in a loop        ${meshSeconds.toFixed(2)} s   (${(bytes / 1e6).toFixed(0)} MB)`,
  );
  console.log(`ratio order / meshes-only                                  ${(readySeconds / meshSeconds).toFixed(2)}`);
} finally {
  await server.close();
}
