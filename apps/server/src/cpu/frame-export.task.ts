import { frameToCsv, frameToVtp, type ColumnInfo } from '@insilico/sph';
import { cpuTask } from './task';

export interface FrameExportInput {
  frame: Uint8Array;
  /** The frame's columns at its particle count (the manifest's, placed by `frameColumnsAt`). */
  columns: ColumnInfo[];
  /** Simulated time of the frame, s (written into the VTP). */
  time: number;
  format: 'csv' | 'vtp';
}

/** A stored frame as CSV (units in the headers) or VTP text, in a pool thread (100k particles take a while). */
export function exportFrame(input: FrameExportInput): string {
  const { columns } = input;
  return input.format === 'csv' ? frameToCsv(input.frame, columns) : frameToVtp(input.frame, columns, input.time);
}

export const frameExportTask = cpuTask(import.meta.url, 'exportFrame', exportFrame);
