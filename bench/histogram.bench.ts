// `npm run bench -- histogram`: the histogram/heatmap card's binning (issue 16, "Speed"), measured against a plain
// typed-array loop in the same run on the same machine:
//   plain — `counts[((v - min) * scale) | 0]++` over the same values, no range or NaN check, no last-bin clamp:
//           the floor cost of touching every value once.
// Rows: the histogram of 10^7 Float32 values into 999 bins (target ≤ 30 ms, ratio ≤ 1.2), the same with the
// value-range pass the worker makes first, and a 999 × 999 heatmap (999 timesteps × 10,000 particles) binned and
// turned into RGBA pixels (target ≤ 300 ms with drawing; the browser's putImageData is not in Node). Figures go to
// docs/benchmarks.md, "Simulation-result histogram and heatmap".
import {
  heatmap,
  histogram,
  histogramOfOwnRange,
  layoutFromBinCount,
  valueRange,
  type BinLayout,
} from '../packages/contracts/src/binning';
import { heatmapPixels } from '../apps/web/src/features/simulation-results/heatmapImage';

const COUNT = Number(process.env.HISTOGRAM_BENCH_COUNT ?? 1e7);
const REPEATS = Number(process.env.HISTOGRAM_BENCH_REPEATS ?? 15);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function time(label: string, run: () => unknown, repeats = REPEATS): number {
  for (let i = 0; i < 3; i += 1) run(); // warm-up (JIT)
  const samples: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  const m = median(samples);
  console.log(
    `${label.padEnd(58)} median ${m.toFixed(2).padStart(8)} ms   min ${Math.min(...samples)
      .toFixed(2)
      .padStart(8)} ms`,
  );
  return m;
}

/** The reference: one increment per value, nothing else. */
function plainLoop(values: Float32Array, layout: BinLayout): Uint32Array {
  const counts = new Uint32Array(layout.count + 1);
  const { min } = layout;
  const scale = 1 / layout.binSize;
  for (let i = 0; i < values.length; i++) counts[((values[i]! - min) * scale) | 0]!++;
  return counts;
}

// A skewed, seeded distribution (as a particle output is): x² of uniform draws, in [0, 50].
let state = 20261125;
const random = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 4294967296;
};
const values = Float32Array.from({ length: COUNT }, () => 50 * random() ** 2);
const layout = layoutFromBinCount(0, 50, 999);

console.log(`histogram of ${COUNT.toLocaleString('en')} Float32 values into ${layout.count} bins, ${REPEATS} rounds`);
// Interleaved rounds (plain, ours, ours with the range pass): on a shared machine a burst of other work then hits
// every variant alike instead of one of them.
const runs = {
  plain: () => plainLoop(values, layout),
  ours: () => histogram(values, layout),
  ownRange: () => histogramOfOwnRange(values, layout, 0),
  withRange: () => {
    const { min, max, nonFinite } = valueRange([values]);
    return histogramOfOwnRange(values, layoutFromBinCount(min, max, 999), nonFinite);
  },
};
const samples: Record<keyof typeof runs, number[]> = { plain: [], ours: [], ownRange: [], withRange: [] };
for (let round = -3; round < REPEATS; round += 1) {
  for (const name of Object.keys(runs) as (keyof typeof runs)[]) {
    const t0 = performance.now();
    runs[name]();
    if (round >= 0) samples[name].push(performance.now() - t0); // rounds < 0 warm the JIT up
  }
}
const report = (label: string, xs: number[]) => {
  const m = median(xs);
  console.log(
    `${label.padEnd(58)} median ${m.toFixed(2).padStart(8)} ms   min ${Math.min(...xs)
      .toFixed(2)
      .padStart(8)} ms`,
  );
  return m;
};
const plain = report('plain typed-array loop (reference)', samples.plain);
const ours = report('histogram (any layout: range + NaN checks)', samples.ours);
const own = report('histogramOfOwnRange (layout = the values own range)', samples.ownRange);
const withRange = report('valueRange + histogramOfOwnRange (the worker)', samples.withRange);
const minRatio = (xs: number[]) => (Math.min(...xs) / Math.min(...samples.plain)).toFixed(2);
console.log(
  `ratio of the minima: histogram / plain ${minRatio(samples.ours)}, own range / plain ${minRatio(samples.ownRange)}`,
);
// The same counts: the check is part of the bench, not only of the tests.
const a = plainLoop(values, layout);
const b = histogram(values, layout);
// The plain loop puts a value equal to max one past the last bin; ours closes the last bin.
a[layout.count - 1]! += a[layout.count]!;
for (let i = 0; i < layout.count; i++) {
  if (a[i] !== b[i]) throw new Error(`bin ${i}: plain ${a[i]} ours ${b[i]}`);
}
if ([...histogramOfOwnRange(values, layout, 0)].some((c, i) => c !== b[i])) throw new Error('own-range counts differ');
console.log(
  `ratio of the medians: histogram / plain ${(ours / plain).toFixed(2)}, own range / plain ${(own / plain).toFixed(2)} (target ≤ 1.2; ≤ 30 ms)`,
);
console.log(`ratio (valueRange + own range) / plain ${(withRange / plain).toFixed(2)}`);

const columns = Array.from({ length: 999 }, (_, t) => values.subarray(t * 10_000, (t + 1) * 10_000));
const heatLayout = layoutFromBinCount(0, 50, 999);
console.log(`\nheatmap 999 timesteps × 10,000 particles → 999 × 999`);
const heatBins = time('heatmap binning', () => heatmap(columns, 0, 998, heatLayout), 7);
const rows = heatmap(columns, 0, 998, heatLayout);
const heatDraw = time('heatmap RGBA pixels', () => heatmapPixels(rows, 999), 7);
console.log(`binning + pixels ${(heatBins + heatDraw).toFixed(1)} ms (target ≤ 300 ms with the canvas draw)`);
