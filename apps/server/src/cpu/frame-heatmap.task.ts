import { closeSync, openSync } from 'node:fs';
import { computePlot, scalarValues, type BinChoice, type HeatmapPlotData } from '@insilico/contracts/binning';
import { readAt } from './frame-timeline.task';
import { cpuTask } from './task';

/** One object's column of one stored frame: where it lies in the frame's file. */
export interface HeatmapColumnPart {
  path: string;
  offset: number;
  count: number;
  components: number;
}

export interface FrameHeatmapInput {
  /** Saved timesteps of the result (the heatmap's rows are indexed by them). */
  timesteps: number;
  /** The parts of each timestep the range needs (the range widened to 1 step where it is shorter, spec §5). */
  frames: { timestep: number; parts: HeatmapColumnPart[] }[];
  start: number;
  end: number;
  bins: BinChoice;
}

/** The heatmap's rows as plain arrays (JSON), spec §3 "Heatmap plot data". */
export type FrameHeatmapOutput = Omit<HeatmapPlotData, 'data'> & { data: number[][] };

/**
 * The histogram/heatmap card's Range mode next to the stored frames (issue 16 item 7: "bins are computed next to the
 * data"): reads only the chosen output's column of each frame (vectors as magnitudes) and bins it with the card's own
 * `computePlot`, so a range over 200 timesteps of 100k particles sends bin counts, not 80 MB of values.
 */
export function frameHeatmap(input: FrameHeatmapInput): FrameHeatmapOutput | null {
  const columns: Float32Array[] = Array.from({ length: input.timesteps }, () => new Float32Array(0));
  for (const frame of input.frames) {
    const parts: Float32Array[] = [];
    for (const part of frame.parts) {
      const file = openSync(part.path, 'r');
      try {
        const bytes = readAt(file, part.offset, 4 * part.count * part.components);
        parts.push(scalarValues(new Float32Array(bytes.buffer), part.components, part.count));
      } finally {
        closeSync(file);
      }
    }
    const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      all.set(part, offset);
      offset += part.length;
    }
    columns[frame.timestep] = all;
  }
  const plot = computePlot(columns, { mode: 'range', start: input.start, end: input.end, bins: input.bins });
  if (!plot || !('timerange' in plot)) return null;
  return { ...plot, data: plot.data.map((row) => Array.from(row)) };
}

export const frameHeatmapTask = cpuTask(import.meta.url, 'frameHeatmap', frameHeatmap);
