/**
 * Bins of the histogram/heatmap card (spec §5 "Bin size", "Amount of bins"; §9 "Graph widgets"), pure so they run
 * next to the binary columns — in the results page's Web Worker, and on the server for a Range heatmap over stored
 * frames — and are tested against a plain loop. No DOM, no React.
 */

/** Spec §9: the bin size and the bin count are at most 999; the count at least 1; the size at least 1e-10. */
export const maxBins = 999;
export const minBins = 1;
export const maxBinSize = 999;
export const binSizeFloor = 1e-10;

export type Values = Float32Array | Float64Array;

/** How the bins are laid out over [min, max]: `count` bins of `binSize` from `min`. */
export interface BinLayout {
  min: number;
  max: number;
  binSize: number;
  count: number;
}

/** The smallest bin size allowed over a range (spec §5): (max − min) / 999, never below 1e-10. */
export function minBinSizeFor(min: number, max: number): number {
  return Math.max((max - min) / maxBins, binSizeFloor);
}

/**
 * A typed bin size made valid (spec §5): above 999 becomes 999, below (max − min) / 999 becomes that minimum, and
 * never below 1e-10 (a negative size is below the minimum too). Empty, zero or non-numeric input is ignored: null.
 */
export function clampBinSize(binSize: number | null | undefined, min: number, max: number): number | null {
  if (binSize === null || binSize === undefined || !Number.isFinite(binSize) || binSize === 0) return null;
  let size = binSize;
  if (size > maxBinSize) size = maxBinSize;
  const floor = minBinSizeFor(min, max);
  if (size < floor) size = floor;
  return size;
}

/** The amount of bins clamped between 1 and 999 (spec §5), as an integer. */
export function clampBinCount(count: number): number {
  if (!Number.isFinite(count)) return minBins;
  return Math.min(maxBins, Math.max(minBins, Math.trunc(count)));
}

/** The layout for a bin size (clamped): as many bins as cover [min, max], at most 999. */
export function layoutFromBinSize(min: number, max: number, binSize: number): BinLayout {
  const size = clampBinSize(binSize, min, max) ?? minBinSizeFor(min, max);
  return { min, max, binSize: size, count: clampBinCount(Math.ceil((max - min) / size) || 1) };
}

/** The layout for an amount of bins (clamped): equal bins spanning [min, max]. */
export function layoutFromBinCount(min: number, max: number, count: number): BinLayout {
  const bins = clampBinCount(count);
  return { min, max, binSize: Math.max((max - min) / bins, binSizeFloor), count: bins };
}

/**
 * Minimum and maximum of the finite values, and how many values are not finite (NaN, ±Infinity); [0, 0] when no value
 * is finite.
 */
export function valueRange(columns: readonly Values[]): { min: number; max: number; nonFinite: number } {
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (const values of columns) {
    const n = values.length;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      // NaN fails both comparisons; `v !== v` is NaN's own test. ±Infinity is rare: handled below, off the hot loop.
      if (v < min) min = v;
      if (v > max) max = v;
      if (v !== v) nan += 1;
    }
  }
  if (min === -Infinity || max === Infinity) return finiteRange(columns);
  return min <= max ? { min, max, nonFinite: nan } : { min: 0, max: 0, nonFinite: nan };
}

/** valueRange's careful pass, for data holding ±Infinity. */
function finiteRange(columns: readonly Values[]): { min: number; max: number; nonFinite: number } {
  let min = Infinity;
  let max = -Infinity;
  let nonFinite = 0;
  for (const values of columns) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      // v - v is 0 for a finite value and NaN for NaN and ±Infinity.
      if (v - v !== 0) nonFinite += 1;
      else {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  }
  return min <= max ? { min, max, nonFinite } : { min: 0, max: 0, nonFinite };
}

/**
 * The histogram of one timestep's values. Bins are half-open [a, b) except the last, which is closed: a value equal
 * to `max` counts in the last bin. Values outside [min, max] and NaN are not counted.
 */
export function histogram(values: Values, layout: BinLayout): Uint32Array {
  const { min, count } = layout;
  const scale = 1 / layout.binSize;
  // The range is tested on the scaled offset k, not on v, and a value out of range or NaN (which fails k >= 0) is
  // counted in a discard slot instead of branching around the increment: the loop stays within ≈ 1.3× of an
  // unchecked one (bench/histogram.bench.ts). k == top (v == max) may land one past the last bin: that slot is
  // folded into the last bin below, so the loop needs no clamp.
  const top = (layout.max - min) * scale;
  const discard = count + 1;
  const counts = new Uint32Array(count + 2);
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const k = (values[i]! - min) * scale;
    counts[k >= 0 && k <= top ? k | 0 : discard]!++;
  }
  counts[count - 1]! += counts[count]!;
  return counts.subarray(0, count);
}

/**
 * The histogram of values whose own range is the layout's [min, max] (the worker's case: the range was just measured
 * on them), with `nonFinite` the count valueRange gave. Every finite value is then in range, so the loop is the
 * plain one: NaN and ±Infinity index bin 0 (`NaN | 0` is 0) and are taken out of it afterwards, and a value equal
 * to max lands one past the last bin and is folded in. Same counts as `histogram` for such values.
 */
export function histogramOfOwnRange(values: Values, layout: BinLayout, nonFinite: number): Uint32Array {
  const { min, count } = layout;
  const scale = 1 / layout.binSize;
  const counts = new Uint32Array(count + 1);
  const n = values.length;
  for (let i = 0; i < n; i++) counts[((values[i]! - min) * scale) | 0]!++;
  counts[0]! -= nonFinite;
  counts[count - 1]! += counts[count]!;
  return counts.subarray(0, count);
}

/** One histogram per timestep of `columns` from `start` to `end` (zero-based, both included): a timestep × bin matrix. */
export function heatmap(columns: readonly Values[], start: number, end: number, layout: BinLayout): Uint32Array[] {
  const rows: Uint32Array[] = [];
  for (let t = start; t <= end; t++) {
    const values = columns[t];
    rows.push(values ? histogram(values, layout) : new Uint32Array(layout.count));
  }
  return rows;
}

/** A bin edge for display: four significant digits, no trailing zeros (0.1 + 0.2 shows 0.3). */
export function formatEdge(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e6) return String(Number(value.toPrecision(4)));
  return value.toExponential(3).replace(/\.?0+e/, 'e');
}

/**
 * The range of bin `index` as a tooltip shows it (spec §9): half-open `[a, b)` for every bin but the last, which is
 * closed `[a, b]` and ends at the data's max.
 */
export function binRangeLabel(index: number, layout: Pick<BinLayout, 'min' | 'max' | 'binSize' | 'count'>): string {
  const from = layout.min + index * layout.binSize;
  const isLast = index >= layout.count - 1;
  const to = isLast ? Math.max(layout.max, from) : layout.min + (index + 1) * layout.binSize;
  return `[${formatEdge(from)}, ${formatEdge(to)}${isLast ? ']' : ')'}`;
}

/** One value per particle: a scalar column as it is, a vector column as its magnitude. */
export function scalarValues(values: ArrayLike<number>, components: number, count: number): Float32Array {
  if (components === 1) return values instanceof Float32Array ? values : Float32Array.from(values);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let sum = 0;
    for (let k = 0; k < components; k++) {
      const v = values[k * count + i]!;
      sum += v * v;
    }
    out[i] = Math.sqrt(sum);
  }
  return out;
}

/** Spec §3 "Histogram plot data": bin counts of one timestep (zero-based). */
export interface HistogramPlotData {
  data: ArrayLike<number>;
  min: number;
  max: number;
  binSize: number;
  timestep: number;
}

/** Spec §3 "Heatmap plot data": a row of bin counts per timestep of the range (zero-based, both ends included). */
export interface HeatmapPlotData {
  data: readonly ArrayLike<number>[];
  min: number;
  max: number;
  binSize: number;
  timerange: { start: number; end: number };
}

/** Spec §5: a bin size (clamped) or an amount of bins (clamped). */
export type BinChoice = { binSize: number } | { binCount: number };

/** The amount of bins of a first plot, before the user chooses (docs/decisions/simulation-result-cards.md). */
export const defaultBinCount = 50;

export type PlotRequest =
  | { mode: 'timestep'; timestep: number; bins: BinChoice }
  | { mode: 'range'; start: number; end: number; bins: BinChoice };

function layoutFor(min: number, max: number, bins: BinChoice): BinLayout {
  return 'binSize' in bins ? layoutFromBinSize(min, max, bins.binSize) : layoutFromBinCount(min, max, bins.binCount);
}

/** Clamps a zero-based timestep into the columns. */
function clampTimestep(t: number, columns: number): number {
  return Math.min(columns - 1, Math.max(0, Math.trunc(t)));
}

/**
 * One plot from the columns (index = zero-based timestep). The value range is that of the plotted timesteps. A range
 * shorter than 1 step is widened to 1 (spec §5 "Range slider: minimum range is 1") where the columns allow.
 */
export function computePlot(
  columns: readonly Values[],
  request: PlotRequest,
): HistogramPlotData | HeatmapPlotData | null {
  if (columns.length === 0) return null;
  if (request.mode === 'timestep') {
    const timestep = clampTimestep(request.timestep, columns.length);
    const values = columns[timestep]!;
    const { min, max, nonFinite } = valueRange([values]);
    const layout = layoutFor(min, max, request.bins);
    return { data: histogramOfOwnRange(values, layout, nonFinite), min, max, binSize: layout.binSize, timestep };
  }
  let start = clampTimestep(Math.min(request.start, request.end), columns.length);
  let end = clampTimestep(Math.max(request.start, request.end), columns.length);
  if (end - start < 1) {
    if (end < columns.length - 1) end = start + 1;
    else start = Math.max(0, end - 1);
  }
  const { min, max } = valueRange(columns.slice(start, end + 1));
  const layout = layoutFor(min, max, request.bins);
  return { data: heatmap(columns, start, end, layout), min, max, binSize: layout.binSize, timerange: { start, end } };
}
