import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameColumnsAt, type FrameColumn } from '@insilico/contracts';
import { frameTimeline, type FrameSummary } from './frame-timeline.task';
import type { ResultManifest } from './wall-shear';

export type { FrameSummary } from './frame-timeline.task';

/** An object's stored summaries by zero-based timestep (as a JSON object: a resumed run adds to it). */
export interface ObjectSummaries {
  timesteps: Record<string, FrameSummary>;
}

export function summarizeFrame(frame: Uint8Array, count: number, columns: readonly FrameColumn[]): FrameSummary {
  const { stats } = frameTimeline({ frame, count, columns: [...columns], particles: [] });
  const placed = frameColumnsAt(columns, count).find((c) => c.name === 'particle_id');
  if (!placed || count === 0) return { stats, firstId: null, idsInOrder: false };
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const firstId = view.getInt32(placed.offset, true);
  let idsInOrder = true;
  for (let i = 1; i < count && idsInOrder; i++) idsInOrder = view.getInt32(placed.offset + 4 * i, true) === firstId + i;
  return { stats, firstId, idsInOrder };
}

/** The summaries of every object's frames from `from` to `last` in a run's result folder. */
export async function summarizeFrames(
  outDir: string,
  manifest: ResultManifest,
  from: number,
  last: number,
): Promise<Record<string, ObjectSummaries>> {
  const out: Record<string, ObjectSummaries> = {};
  for (const object of manifest.objects) {
    const timesteps: Record<string, FrameSummary> = {};
    for (let step = from; step <= last; step++) {
      const count = manifest.timesteps[step]?.particleCounts?.[object.name] ?? object.particleCount;
      const bytes = await readFile(join(outDir, object.name, `${step}.bin`));
      timesteps[String(step)] = summarizeFrame(new Uint8Array(bytes), count, object.columns);
    }
    out[object.name] = { timesteps };
  }
  return out;
}
