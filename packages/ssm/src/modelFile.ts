import { SsmInputError } from './errors';
import type { ShapeBasis, ShapeModel } from './pca';

/** A model as stored and downloaded: the basis for instances and the shared triangles. */
export interface ShapeModelFile extends ShapeBasis {
  readonly vertexCount: number;
  readonly indices: Uint32Array;
}

const MAGIC = 0x314d5353; // "SSM1" little-endian
const HEADER_BYTES = 16;

/**
 * The model as bytes (little-endian): "SSM1", vertex count V, triangle count T, mode count K (uint32 each); then
 * variances (K float64, mm²), mean (3V float32, mm), modes (K × 3V float32, mode after mode, unit norm) and
 * triangles (3T uint32). Float32 halves the file; an instance drawn from it differs from the float64 one by
 * less than a micrometre for shapes of tens of mm.
 */
export function encodeShapeModel(model: ShapeBasis, indices: Uint32Array): Uint8Array {
  const d = model.mean.length;
  const k = model.modeCount;
  const t = indices.length / 3;
  const bytes = HEADER_BYTES + 8 * k + 4 * d + 4 * k * d + 4 * indices.length;
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, d / 3, true);
  view.setUint32(8, t, true);
  view.setUint32(12, k, true);
  let o = HEADER_BYTES;
  for (let i = 0; i < k; i++, o += 8) view.setFloat64(o, model.variances[i] as number, true);
  for (let i = 0; i < d; i++, o += 4) view.setFloat32(o, model.mean[i] as number, true);
  for (let i = 0; i < k * d; i++, o += 4) view.setFloat32(o, model.modes[i] as number, true);
  for (let i = 0; i < indices.length; i++, o += 4) view.setUint32(o, indices[i] as number, true);
  return out;
}

/** Reads {@link encodeShapeModel}'s bytes; refuses anything else with SsmInputError. */
export function decodeShapeModel(bytes: Uint8Array): ShapeModelFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER_BYTES || view.getUint32(0, true) !== MAGIC)
    throw new SsmInputError('This is not a shape model file.');
  const vertexCount = view.getUint32(4, true);
  const triangles = view.getUint32(8, true);
  const modeCount = view.getUint32(12, true);
  const d = 3 * vertexCount;
  const expected = HEADER_BYTES + 8 * modeCount + 4 * d + 4 * modeCount * d + 12 * triangles;
  if (bytes.byteLength !== expected) throw new SsmInputError('The shape model file is truncated or too long.');
  let o = HEADER_BYTES;
  const variances = new Float64Array(modeCount);
  for (let i = 0; i < modeCount; i++, o += 8) variances[i] = view.getFloat64(o, true);
  const mean = new Float64Array(d);
  for (let i = 0; i < d; i++, o += 4) mean[i] = view.getFloat32(o, true);
  const modes = new Float64Array(modeCount * d);
  for (let i = 0; i < modeCount * d; i++, o += 4) modes[i] = view.getFloat32(o, true);
  const indices = new Uint32Array(3 * triangles);
  for (let i = 0; i < indices.length; i++, o += 4) {
    const v = view.getUint32(o, true);
    if (v >= vertexCount) throw new SsmInputError('The shape model file names a vertex it does not have.');
    indices[i] = v;
  }
  return { vertexCount, indices, mean, modes, modeCount, variances };
}

/** The number of modes holding at least `fraction` of the variance (1 when the first alone does). */
export function modesForVariance(model: Pick<ShapeModel, 'explained' | 'modeCount'>, fraction: number): number {
  let sum = 0;
  for (let k = 0; k < model.modeCount; k++) {
    sum += model.explained[k] as number;
    if (sum >= fraction - 1e-12) return k + 1;
  }
  return model.modeCount;
}
