import { createReadStream } from 'node:fs';
import { meshPreviewPng, validateStlChunks, type MeshFinding, type Vec3 } from '@insilico/mesh';
import type { StlMetrics } from '@insilico/contracts';
import { cpuTask, wholeBuffer, type CpuTaskContext } from './task';

/** Side of the square preview image, px. */
export const previewSize = 256;

/** What processing made of one STL file: accepted with metrics, findings and a preview, or refused with why. */
export type StlProcessingResult =
  | {
      ok: true;
      format: 'binary' | 'ascii';
      metrics: StlMetrics;
      findings: MeshFinding[];
      previewPng: Uint8Array;
    }
  | { ok: false; refusal: { code: string; message: string } };

/**
 * Streams one stored STL through the validating parser (never the whole file in memory as bytes), then measures
 * it and renders its preview. `onBytes` reports how far reading got (for progress). Refusals (empty, truncated,
 * size not 84 + 50·n, NaN/∞, broken ASCII …) come back as results; findings such as an open surface only inform
 * (docs/decisions/stl-validation.md; a stent is an open surface by design).
 */
async function processStl(
  chunks: AsyncIterable<Uint8Array>,
  byteLength: number,
  onBytes: (read: number) => void,
): Promise<StlProcessingResult> {
  let read = 0;
  async function* counted(): AsyncIterable<Uint8Array> {
    for await (const chunk of chunks) {
      read += chunk.length;
      onBytes(read);
      yield chunk;
    }
  }
  const validation = await validateStlChunks(counted(), byteLength);
  if (!validation.ok)
    return { ok: false, refusal: { code: validation.refusal.code, message: validation.refusal.reason } };
  const { quality } = validation;
  const metrics: StlMetrics = {
    triangleCount: quality.triangleCount,
    vertexCount: quality.vertexCount,
    boundingBox: {
      min: tuple(quality.boundingBox.min),
      max: tuple(quality.boundingBox.max),
      size: tuple(quality.boundingBox.size),
    },
    surfaceArea_mm2: quality.surfaceArea_mm2,
    volume_mm3: quality.volume_mm3,
    watertight: quality.watertight,
    boundaryEdges: quality.boundaryEdges,
    nonManifoldEdges: quality.nonManifoldEdges,
    degenerateTriangles: quality.degenerateTriangles,
    orientationFlips: quality.orientationFlips,
  };
  return {
    ok: true,
    format: validation.format,
    metrics,
    findings: [...validation.findings],
    previewPng: meshPreviewPng(validation.mesh, { size: previewSize }),
  };
}

const tuple = (v: Vec3): [number, number, number] => [v[0], v[1], v[2]];

/** Where the STL file lies (the blob store's local file) and how many bytes it has. */
export interface StlFileInput {
  path: string;
  bytes: number;
}

/**
 * The pool's task (docs/decisions/jobs-cpu-work-off-event-loop.md): reads the file in the worker thread (1 MiB
 * chunks, so a 1 GB file is never whole in memory), reports the fraction read as progress, and hands the preview
 * PNG over instead of copying it. Cancelling the task ends the thread, which also ends the read.
 */
export async function processStlFile(input: StlFileInput, context: CpuTaskContext): Promise<StlProcessingResult> {
  const stream = createReadStream(input.path, { highWaterMark: 1 << 20 });
  try {
    const result = await processStl(stream, input.bytes, (read) => context.progress(read / Math.max(1, input.bytes)));
    if (result.ok) context.transfer(...wholeBuffer(result.previewPng));
    return result;
  } finally {
    stream.destroy();
  }
}

export const processStlFileTask = cpuTask(import.meta.url, 'processStlFile', processStlFile);
