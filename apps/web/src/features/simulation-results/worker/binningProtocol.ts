import {
  heatmap,
  histogramOfOwnRange,
  layoutFromBinCount,
  layoutFromBinSize,
  valueRange,
  type BinLayout,
  type Values,
} from '../binning';
import type { HeatmapPlotData, HistogramPlotData } from '../types';

/**
 * The messages between the results page and its binning Web Worker: the page hands the worker one output's values
 * per timestep once (`load`, the typed arrays transferred, not copied); each `plot` then asks for a histogram of one
 * timestep or a heatmap of a range, and only the bin counts come back (at most 999 × 999 numbers), never the
 * particles. Answers carry the request's sequence number; the page keeps the latest.
 */

/** Spec §5: a bin size (clamped) or an amount of bins (clamped). */
export type BinChoice = { binSize: number } | { binCount: number };

/** The amount of bins of a first plot, before the user chooses (docs/decisions/simulation-result-cards.md). */
export const defaultBinCount = 50;

export type PlotRequest =
  | { mode: 'timestep'; timestep: number; bins: BinChoice }
  | { mode: 'range'; start: number; end: number; bins: BinChoice };

export type BinningRequest =
  | { type: 'load'; seq: number; columns: Values[] }
  /** Empties the columns for a result of `timesteps` saved timesteps (another output or object). */
  | { type: 'reset'; seq: number; timesteps: number }
  /** One timestep's values, fetched when a plot first needs them (the page never holds every timestep). */
  | { type: 'put'; seq: number; timestep: number; values: Values }
  | { type: 'plot'; seq: number; request: PlotRequest };

export type BinningReply =
  | { seq: number; ok: true; plot: HistogramPlotData | HeatmapPlotData | null }
  | { seq: number; ok: false; message: string };

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

/** The worker's state and its answer to each message (pure apart from the loaded columns). */
export function createBinningHandler() {
  let columns: Values[] = [];
  return (message: BinningRequest): BinningReply => {
    try {
      if (message.type === 'load') {
        columns = message.columns;
        return { seq: message.seq, ok: true, plot: null };
      }
      if (message.type === 'reset') {
        columns = Array.from({ length: message.timesteps }, () => new Float32Array(0));
        return { seq: message.seq, ok: true, plot: null };
      }
      if (message.type === 'put') {
        if (message.timestep < 0 || message.timestep >= columns.length) throw new Error('No such timestep.');
        columns[message.timestep] = message.values;
        return { seq: message.seq, ok: true, plot: null };
      }
      return { seq: message.seq, ok: true, plot: computePlot(columns, message.request) };
    } catch (error) {
      return { seq: message.seq, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** What the client needs of a Worker (a fake in tests). */
export interface BinningPort {
  postMessage(message: BinningRequest, transfer?: Transferable[]): void;
  onmessage: ((event: { data: BinningReply }) => void) | null;
  terminate(): void;
}

/**
 * The page's side: `load` hands the columns over, `plot` resolves with the plot of the latest request; an answer to
 * an older request is dropped (resolves null), so a fast-moving slider never draws out of order.
 */
export function createBinningClient(port: BinningPort) {
  let seq = 0;
  const pending = new Map<
    number,
    { resolve: (plot: HistogramPlotData | HeatmapPlotData | null) => void; reject: (error: Error) => void }
  >();
  port.onmessage = ({ data }) => {
    const waiting = pending.get(data.seq);
    if (!waiting) return;
    pending.delete(data.seq);
    if (!data.ok) waiting.reject(new Error(data.message));
    else waiting.resolve(data.seq === seq ? data.plot : null);
  };
  const send = (message: BinningRequest, transfer: Transferable[] = []) =>
    new Promise<HistogramPlotData | HeatmapPlotData | null>((resolve, reject) => {
      pending.set(message.seq, { resolve, reject });
      port.postMessage(message, transfer);
    });
  return {
    load(columns: Values[]) {
      seq += 1;
      return send(
        { type: 'load', seq, columns },
        columns.map((c) => c.buffer as ArrayBuffer),
      );
    },
    reset(timesteps: number) {
      seq += 1;
      return send({ type: 'reset', seq, timesteps });
    },
    /** Hands one timestep's values over (transferred: the caller must not use them afterwards). */
    put(timestep: number, values: Values) {
      seq += 1;
      return send({ type: 'put', seq, timestep, values }, [values.buffer as ArrayBuffer]);
    },
    plot(request: PlotRequest) {
      seq += 1;
      return send({ type: 'plot', seq, request });
    },
    dispose() {
      port.terminate();
      pending.clear();
    },
  };
}
