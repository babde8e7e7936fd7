import { meshPreviewPng, validateStlChunks, type MeshFinding, type Vec3 } from '@insilico/mesh';
import type { StlMetrics } from '@insilico/contracts';

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
export async function processStl(
  chunks: AsyncIterable<Uint8Array>,
  byteLength: number,
  onBytes: (read: number) => void,
  signal: AbortSignal,
): Promise<StlProcessingResult> {
  let read = 0;
  async function* counted(): AsyncIterable<Uint8Array> {
    for await (const chunk of chunks) {
      signal.throwIfAborted();
      read += chunk.length;
      onBytes(read);
      yield chunk;
    }
  }
  const validation = await validateStlChunks(counted(), byteLength);
  if (!validation.ok)
    return { ok: false, refusal: { code: validation.refusal.code, message: validation.refusal.reason } };
  signal.throwIfAborted();
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
