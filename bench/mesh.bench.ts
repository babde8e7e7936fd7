// `npm run bench -- mesh`: one patient's meshes for one phase (all 13 organs with landmarks, every shape scaled to
// the patient's parameters), against references in the same run on the same triangles:
//  - stl:  merely writing those triangles as binary STL (writeBinaryStl of every organ), the floor of any
//          pipeline that hands a mesh to storage;
//  - naive: rebuilding the organs at the same resolution without the measure-and-scale step (fixed shapes),
//          i.e. what fitting the parameters costs on top of tessellation.
// Also: serialising one phase to STL + GLB, a 12-frame cine, and the topology check of every organ.
// MESH_BENCH_REPEATS (default 25) timed runs after 5 warm-ups; medians reported. Target: < 200 ms per phase.
import {
  buildPatientMeshes,
  cineFrames,
  DEFAULT_POPULATION_SEED,
  generatePatient,
  ORGANS,
  organStl,
  patientGlb,
} from '@insilico/anatomy';
import {
  analyseTopology,
  loftIndices,
  loftRingVertex,
  loftVertexCount,
  writeBinaryStl,
  type LoftOptions,
  type TriangleMesh,
} from '@insilico/mesh';

const REPEATS = Number(process.env.MESH_BENCH_REPEATS ?? 25);
const WARMUP = 5;
const BUDGET_MS = 200;

interface Timing {
  readonly median: number;
  readonly min: number;
}

function time(label: string, fn: () => unknown, repeats = REPEATS): Timing {
  for (let i = 0; i < WARMUP; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const result = { median: samples[Math.floor(samples.length / 2)] ?? NaN, min: samples[0] ?? NaN };
  console.log(
    `${label.padEnd(58)} median ${result.median.toFixed(2).padStart(8)} ms   min ${result.min.toFixed(2)} ms`,
  );
  return result;
}

/** Same-sized closed lofts with fixed shapes (no measuring, no scaling): the naive tessellation reference. */
function naiveOrgans(meshes: readonly TriangleMesh[]): TriangleMesh[] {
  return meshes.map((m, k) => {
    const triangles = m.indices.length / 3;
    // A pole-closed loft of 48 around with the same triangle count (± one ring) as the organ.
    const ringSize = 48;
    const options: LoftOptions = { ringCount: Math.max(2, Math.round(triangles / (2 * ringSize))), ringSize };
    const positions = new Float64Array(loftVertexCount(options) * 3);
    for (let r = 0; r < options.ringCount; r++) {
      const theta = (Math.PI * (r + 1)) / (options.ringCount + 1);
      for (let i = 0; i < ringSize; i++) {
        const phi = (2 * Math.PI * i) / ringSize;
        const v = loftRingVertex(options, r, i) * 3;
        positions[v] = (20 + k) * Math.sin(theta) * Math.cos(phi);
        positions[v + 1] = (20 + k) * Math.sin(theta) * Math.sin(phi);
        positions[v + 2] = -(30 + k) * Math.cos(theta);
      }
    }
    return { positions, indices: loftIndices(options) };
  });
}

const patient = generatePatient(DEFAULT_POPULATION_SEED, 0);
const coldStart = performance.now();
const sample = buildPatientMeshes(patient, 'end-diastole');
const cold = performance.now() - coldStart;
const triangles = sample.organs.reduce((n, o) => n + o.mesh.indices.length / 3, 0);
const vertices = sample.organs.reduce((n, o) => n + o.mesh.positions.length / 3, 0);
console.log(
  `patient ${patient.id}: ${ORGANS.length} organs, ${triangles} triangles, ${vertices} vertices, Node ${process.version}`,
);

const ours = time('buildPatientMeshes, one phase (end-systole)', () => buildPatientMeshes(patient, 'end-systole'));
const stl = time('reference stl: writeBinaryStl of the same triangles', () => {
  for (const o of sample.organs) writeBinaryStl(o.mesh);
});
const naive = time('reference naive: fixed-shape lofts, same triangle count', () =>
  naiveOrgans(sample.organs.map((o) => o.mesh)),
);
const serialise = time('serialise one phase: 13 STL + 1 GLB', () => {
  for (const organ of ORGANS) organStl(sample, organ);
  patientGlb(sample);
});
const topology = time('analyseTopology of every organ', () => {
  for (const o of sample.organs) analyseTopology(o.mesh);
});
const frames = cineFrames();
const cine = time(
  `cine: ${frames.length} frames ED → ES`,
  () => {
    for (const phase of frames) buildPatientMeshes(patient, phase);
  },
  Math.max(5, Math.round(REPEATS / 3)),
);

const cohort = time(
  '100 patients: ED + ES meshes, 13 STL + 1 GLB each',
  () => {
    for (let i = 0; i < 100; i++) {
      const p = generatePatient(DEFAULT_POPULATION_SEED, i);
      for (const phase of ['end-diastole', 'end-systole'] as const) {
        const meshes = buildPatientMeshes(p, phase);
        for (const organ of ORGANS) organStl(meshes, organ);
        patientGlb(meshes);
      }
    }
  },
  3,
);

console.log('');
console.log(`first call in the process (cold, JIT not warm): ${cold.toFixed(1)} ms`);
console.log(`ratio ours / STL write  : ${(ours.median / stl.median).toFixed(2)}`);
console.log(`ratio ours / naive loft : ${(ours.median / naive.median).toFixed(2)}`);
console.log(
  `per phase with STL+GLB  : ${(ours.median + serialise.median).toFixed(1)} ms; topology check ${topology.median.toFixed(1)} ms; cine per frame ${(cine.median / frames.length).toFixed(1)} ms`,
);
console.log(`100-patient cohort, ED + ES with files: ${(cohort.median / 1000).toFixed(2)} s`);
const pass = ours.median < BUDGET_MS;
console.log(`${pass ? 'PASS' : 'FAIL'}: one phase in ${ours.median.toFixed(1)} ms (budget ${BUDGET_MS} ms)`);
if (!pass) process.exitCode = 1;
