// `npm run bench -- anatomy`: parameters of the synthetic population (issue 4: 2,000 patients in < 1 s),
// measured against two references in the same run on the same machine:
//   naive  — the same PRNG draws per patient written into a Float64Array (no model, no conditioning, no
//            Cholesky, no derived geometry, no record objects): the floor cost of the randomness;
//   json   — JSON.stringify + JSON.parse of the generated population: the cost of merely copying the records.
// Also the live count of the order page and a 100-patient stratified sample. Figures go to docs/benchmarks.md,
// "Synthetic virtual population".
import {
  countMatches,
  createDefaultCriteria,
  cyclePathology,
  deriveSeed,
  drawStratifiedSample,
  generatePopulation,
  matchPatients,
  setBodyDimensionRange,
  toggleOrigin,
  toggleSex,
  Xoshiro128,
} from '@insilico/anatomy';

const COUNT = Number(process.env.ANATOMY_BENCH_COUNT ?? 2000);
const REPEATS = Number(process.env.ANATOMY_BENCH_REPEATS ?? 15);
const BUDGET_MS = 1000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function time(label: string, run: () => unknown): { median: number; min: number } {
  for (let i = 0; i < 3; i += 1) run(); // warm-up (JIT)
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  const result = { median: median(samples), min: Math.min(...samples) };
  console.log(
    `${label.padEnd(46)} median ${result.median.toFixed(2).padStart(8)} ms   min ${result.min.toFixed(2).padStart(8)} ms`,
  );
  return result;
}

/**
 * Naive reference: the same number of PRNG draws per patient (one generator per patient, 12 uniforms and
 * 23 normals, as generatePatient makes) written into one Float64Array, plus the id strings: the floor cost of
 * the randomness, with no model and no record objects.
 */
function naivePopulation(seed: number, count: number): Float64Array {
  const width = 12 + 23;
  const out = new Float64Array(count * width);
  const ids: string[] = new Array<string>(count);
  for (let i = 0; i < count; i += 1) {
    const rng = new Xoshiro128(deriveSeed(seed, 1, i));
    const row = i * width;
    for (let k = 0; k < 12; k += 1) out[row + k] = rng.nextFloat();
    for (let k = 12; k < width; k += 1) out[row + k] = rng.nextNormal();
    ids[i] = `SYN-${String(i + 1).padStart(6, '0')}`;
  }
  return out;
}

console.log(`node ${process.version}, ${COUNT} patients, ${REPEATS} timed runs after 3 warm-ups`);
let seed = 1;
const ours = time(`generatePopulation (${COUNT})`, () => generatePopulation({ seed: seed++, count: COUNT }));
const naive = time(`reference: naive, same draws only (${COUNT})`, () => naivePopulation(seed++, COUNT));
const population = generatePopulation({ count: COUNT });
const json = time(`reference: JSON round trip of the population`, () => JSON.parse(JSON.stringify(population)));

let criteria = toggleSex(createDefaultCriteria(), 'female');
criteria = toggleOrigin(criteria, 'location', 'europe');
criteria = cyclePathology(criteria, 'aortic_valve_insufficiency_stenosis');
criteria = setBodyDimensionRange(criteria, 'bmi', { min: 18.5, max: 35 });
const live = time(`countMatches (live count, ${COUNT} patients)`, () => countMatches(population.patients, criteria));
const broad = matchPatients(population.patients, toggleSex(createDefaultCriteria(), 'female'));
const sample = time(`drawStratifiedSample 100 of ${broad.length}`, () =>
  drawStratifiedSample(broad, 100, 'cohort-bench'),
);
const large = time('generatePopulation (20,000)', () => generatePopulation({ seed: seed++, count: 20_000 }));

console.log('');
console.log(`ratio ours / naive draws    : ${(ours.median / naive.median).toFixed(2)}`);
console.log(`ratio ours / JSON round trip: ${(ours.median / json.median).toFixed(2)}`);
console.log(
  `per patient: ${((ours.median / COUNT) * 1000).toFixed(1)} µs; 20,000 patients ${large.median.toFixed(0)} ms`,
);
console.log(`live count ${live.median.toFixed(3)} ms, sample ${sample.median.toFixed(3)} ms`);
const pass = ours.median < BUDGET_MS;
console.log(`${pass ? 'PASS' : 'FAIL'}: ${COUNT} patients in ${ours.median.toFixed(1)} ms (budget ${BUDGET_MS} ms)`);
if (!pass) process.exitCode = 1;
