// `npm run bench -- measure`: issue 23's budgets, each against a reference in the same run:
//  - one plane section of a 50k-triangle closed mesh (contours chained, area, perimeter and the five diameters)
//    ≤ 5 ms, against the naive all-triangles loop of @insilico/mesh's planeSection (three plane distances per
//    triangle, area and perimeter only, no contours);
//  - the built-in SCCT TAVI set on 100 synthetic patients (meshes built included) ≤ 20 s on 2 cores: on one thread
//    against building the same patients' meshes alone, and ordered through the real server (HTTP, the durable job,
//    the CPU pool, results written) on a 100-patient cohort from POST to ready.
// MEASURE_BENCH_REPEATS (default 50) timed section runs after 5 warm-ups; medians reported.
import { buildPatientMeshes, DEFAULT_POPULATION_SEED, generatePatient } from '@insilico/anatomy';
import { loftIndices, loftRingVertex, loftVertexCount, planeSection, type TriangleMesh64 } from '@insilico/mesh';
import { createDefaultCriteria } from '@insilico/anatomy';
import { lumenSection, measureLumen, measurePatient, TAVI_MEASUREMENTS, type Plane } from '@insilico/measure';
import { signedInWorkspace, startBenchServer } from './benchServer';

const REPEATS = Number(process.env.MEASURE_BENCH_REPEATS ?? 50);
const WARMUP = 5;
const SECTION_BUDGET_MS = 5;
const TAVI_BUDGET_S = 20;

function median(fn: () => unknown, repeats = REPEATS): number {
  for (let i = 0; i < WARMUP; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

/** A wavy elliptic tube of ~50k triangles (250 vertices per ring, 100 rings), closed by poles. */
function tube(): TriangleMesh64 {
  const options = { ringCount: 100, ringSize: 250 };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  positions.set([0, 0, -1], 0);
  for (let r = 0; r < options.ringCount; r++)
    for (let i = 0; i < options.ringSize; i++) {
      const t = (2 * Math.PI * i) / options.ringSize;
      const s = 1 + 0.08 * Math.sin(3 * t) * Math.sin(r / 7);
      positions.set([14 * s * Math.cos(t), 11 * s * Math.sin(t), r], loftRingVertex(options, r, i) * 3);
    }
  positions.set([0, 0, options.ringCount], positions.length - 3);
  return { positions, indices: loftIndices(options) };
}

const mesh = tube();
const triangles = mesh.indices.length / 3;
const plane: Plane = { point: [0.3, -0.2, 47.5], normal: [0.15, 0.1, 1] };
const n = Math.hypot(...plane.normal);
const unitPlane: Plane = { point: plane.point, normal: plane.normal.map((x) => x / n) as [number, number, number] };
const ours = median(() => {
  const lumen = lumenSection(mesh, unitPlane);
  if (typeof lumen === 'string') throw new Error(lumen);
  return measureLumen(lumen);
});
const naive = median(() => planeSection(mesh, plane.point, plane.normal));
console.log(
  `plane section of ${triangles} triangles: contours + 7 quantities ${ours.toFixed(3)} ms (budget ${SECTION_BUDGET_MS} ms)`,
);
console.log(
  `  reference, naive all-triangles loop (area + perimeter only): ${naive.toFixed(3)} ms; ratio ${(ours / naive).toFixed(2)}`,
);

const patients = Array.from({ length: 100 }, (_, i) => generatePatient(DEFAULT_POPULATION_SEED, i * 17));
let t0 = performance.now();
let failures = 0;
for (const p of patients)
  for (const o of measurePatient(p, TAVI_MEASUREMENTS).outcomes) if ('failure' in o) failures += 1;
const taviS = (performance.now() - t0) / 1000;
t0 = performance.now();
for (const p of patients) buildPatientMeshes(p, 'end-systole');
const meshesS = (performance.now() - t0) / 1000;
console.log(
  `TAVI set (${TAVI_MEASUREMENTS.length} measurements) on 100 patients, one thread: ${taviS.toFixed(2)} s (budget ${TAVI_BUDGET_S} s), ${failures} failures`,
);
console.log(
  `  reference, building the same meshes only: ${meshesS.toFixed(2)} s; measuring adds ${(taviS - meshesS).toFixed(2)} s`,
);
// Through the real server: a 100-patient cohort (not timed), then the TAVI set ordered on it until ready.
const server = await startBenchServer('measure', { jobPollSeconds: 0.5 });
let orderS = Number.NaN;
try {
  const { deviceId, cookie } = await signedInWorkspace(server, 'bench-measure', 'Bench valve');
  const headers = { cookie, origin: server.origin, 'content-type': 'application/json' };
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(
      `${server.origin}${path}`,
      body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) },
    );
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const until = async (path: string): Promise<string> => {
    for (;;) {
      const { status } = await call<{ status: string }>(path);
      if (status !== 'in_progress') return status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const cohort = await call<{ id: string }>(`/api/devices/${deviceId}/cohorts`, {
    name: 'Measured cohort',
    size: 100,
    criteria: createDefaultCriteria(),
  });
  if ((await until(`/api/devices/${deviceId}/cohorts/${cohort.id}`)) !== 'ready') throw new Error('cohort failed');
  const { builtInSets } = await call<{ builtInSets: { definitionIds: string[] }[] }>(
    `/api/devices/${deviceId}/measurement-definitions`,
  );
  const t1 = performance.now();
  const order = await call<{ id: string }>(`/api/devices/${deviceId}/cohorts/${cohort.id}/measurement-orders`, {
    definitionIds: builtInSets[0]?.definitionIds ?? [],
  });
  const status = await until(`/api/devices/${deviceId}/measurement-orders/${order.id}`);
  orderS = (performance.now() - t1) / 1000;
  console.log(
    `TAVI set ordered on a 100-patient cohort through the server (HTTP, job, CPU pool, results): ${orderS.toFixed(2)} s, ${status} (budget ${TAVI_BUDGET_S} s)`,
  );
} finally {
  await server.close();
}
if (ours > SECTION_BUDGET_MS || taviS > TAVI_BUDGET_S || !(orderS <= TAVI_BUDGET_S)) {
  console.error('over budget');
  process.exit(1);
}
