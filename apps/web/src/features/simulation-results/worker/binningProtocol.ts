import {
  computePlot,
  type HeatmapPlotData,
  type HistogramPlotData,
  type PlotRequest,
  type Values,
} from '@insilico/contracts/binning';

export { computePlot, defaultBinCount, type BinChoice, type PlotRequest } from '@insilico/contracts/binning';

/**
 * The messages between the results page and its binning Web Worker: the page hands the worker one output's values
 * per timestep once (`load`, the typed arrays transferred, not copied); each `plot` then asks for a histogram of one
 * timestep or a heatmap of a range, and only the bin counts come back (at most 999 × 999 numbers), never the
 * particles. Answers carry the request's sequence number; the page keeps the latest.
 */

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
