// `npm run bench -- ssm`: issue 18's budgets. (1) An SSM of 100 aortic roots ready in ≤ 60 s on 2 cores: the CPU
// task the build job runs (meshes, alignment, PCA, the quality curves) timed on 100 synthetic patients at
// end-diastole. Reference in the same run: the same without the quality curves (meshes + Procrustes + PCA only),
// i.e. what the model itself costs. Registration is not part of either: the built-in meshes share one topology
// (docs/decisions/ssm.md); bench/ssm-registration.bench.ts times it on remeshed roots (`npm run bench -- ssm` runs
// both, minutes; `-- ssm.bench` this one only). (2) A mode slider: one shape of 30k
// vertices drawn from a model with 99 modes (`modelInstance` into a Float32Array), median of 200, ≤ 16 ms; reference:
// a plain copy of the mean (the floor of drawing anything). SSM_BENCH_SIZE (default 100).
// Figures go to docs/benchmarks.md, "Statistical shape models".
import { defaultPopulation } from '@insilico/anatomy';
import { buildShapeModel, generalisedProcrustes, correspondByTopology, modelInstance } from '@insilico/ssm';
import { buildSsm } from '../apps/server/src/cpu/ssm.task';
import { buildPatientMeshes } from '@insilico/anatomy';

const SIZE = Number(process.env.SSM_BENCH_SIZE ?? 100);
const BUDGET_S = 60;
const FRAME_MS = 16;

const patients = defaultPopulation()
  .patients.filter((p) => p.phases.includes('end-diastole') || p.phases.includes('cine_ct'))
  .slice(0, SIZE)
  .map((patient) => ({ patient, cohortId: '00000000-0000-4000-8000-000000000000' }));

let t = performance.now();
const reference = (() => {
  const meshes = patients.map(
    ({ patient }) => buildPatientMeshes(patient, 'end-diastole').organs.find((o) => o.organ === 'aortic_root')!.mesh,
  );
  const shapes = correspondByTopology(meshes);
  return buildShapeModel(generalisedProcrustes(shapes.shapes).aligned);
})();
const referenceS = (performance.now() - t) / 1000;

t = performance.now();
const output = buildSsm(
  { patients, organs: ['aortic_root'], phase: 'end-diastole', seed: 1, samples: 1000, curveModes: 15 },
  { progress: () => {}, transfer: () => {} },
);
const fullS = (performance.now() - t) / 1000;

console.log(`SSM of ${SIZE} aortic roots (${reference.vertexCount} vertices, ${reference.modeCount} modes):`);
console.log(`  model only (meshes, Procrustes, PCA): ${referenceS.toFixed(2)} s`);
console.log(
  `  the build task (+ generalisation to ${output.quality.generalisation.length} and specificity to ${output.quality.specificity.length} modes, 1,000 samples): ${fullS.toFixed(2)} s (budget ${BUDGET_S} s, ${(fullS / referenceS).toFixed(1)}× the model alone)`,
);

// Slider: 30k vertices, 99 modes (a synthetic basis: the timing does not depend on the values).
const vertices = 30_000;
const modes = 99;
const basis = {
  mean: Float64Array.from({ length: 3 * vertices }, (_, i) => Math.sin(i)),
  modes: Float64Array.from({ length: 3 * vertices * modes }, (_, i) => Math.cos(i) / Math.sqrt(3 * vertices)),
  modeCount: modes,
  variances: Float64Array.from({ length: modes }, (_, k) => 10 / (k + 1)),
};
const out = new Float32Array(3 * vertices);
const sliderTimes: number[] = [];
const copyTimes: number[] = [];
for (let i = 0; i < 200; i++) {
  const deviations = [((i % 13) - 6) / 2, 1, -1, 0.5, 2, -2];
  let s = performance.now();
  modelInstance(basis, deviations, out);
  sliderTimes.push(performance.now() - s);
  s = performance.now();
  out.set(basis.mean);
  copyTimes.push(performance.now() - s);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(
  `Slider: a 30k-vertex shape with 6 modes moved: ${median(sliderTimes).toFixed(2)} ms (budget ${FRAME_MS} ms); copying the mean: ${median(copyTimes).toFixed(2)} ms`,
);
const allModes = Array.from({ length: modes }, () => 1);
const allTimes: number[] = [];
for (let i = 0; i < 20; i++) {
  const s = performance.now();
  modelInstance(basis, allModes, out);
  allTimes.push(performance.now() - s);
}
console.log(`  every one of the 99 modes moved: ${median(allTimes).toFixed(2)} ms`);
if (fullS > BUDGET_S || median(sliderTimes) > FRAME_MS) process.exitCode = 1;
