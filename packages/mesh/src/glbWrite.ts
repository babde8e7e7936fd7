import type { TriangleMesh } from './types';
import { vertexNormals } from './vertexNormals';

/** A mesh with the name its glTF node and mesh carry. */
export interface NamedMesh {
  readonly name: string;
  readonly mesh: TriangleMesh;
}

/** Options of {@link writeGlb}. */
export interface GlbOptions {
  /**
   * Factor from the mesh's units to glTF's metres (default 0.001: positions in mm). glTF defines metres, so the
   * default turns mm into m; pass 1 to keep the coordinates unchanged.
   */
  readonly unitScale?: number;
  /** Free-form JSON-serialisable data stored as the asset's `extras` (e.g. landmarks). */
  readonly extras?: Record<string, unknown>;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"
const FLOAT = 5126;
const UNSIGNED_INT = 5125;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

/**
 * glTF 2.0 binary (GLB) of named meshes for the browser: one node and one mesh per input, each a triangle
 * primitive with float32 POSITION (scaled by `unitScale`, default mm → m) and NORMAL (area-weighted vertex
 * normals) and uint32 indices. Deterministic bytes for the same input.
 */
export function writeGlb(meshes: readonly NamedMesh[], options: GlbOptions = {}): Uint8Array {
  const scale = options.unitScale ?? 0.001;
  const bufferViews: object[] = [];
  const accessors: object[] = [];
  const gltfMeshes: object[] = [];
  const nodes: object[] = [];
  const blocks: Uint8Array[] = [];
  let offset = 0;
  const addView = (data: Float32Array | Uint32Array, target: number): number => {
    bufferViews.push({ buffer: 0, byteOffset: offset, byteLength: data.byteLength, target });
    blocks.push(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    offset += data.byteLength;
    return bufferViews.length - 1;
  };
  for (const { name, mesh } of meshes) {
    const n = mesh.positions.length / 3;
    const positions = new Float32Array(mesh.positions.length);
    for (let i = 0; i < positions.length; i++) positions[i] = (mesh.positions[i] as number) * scale;
    const normals = vertexNormals(mesh, new Float32Array(mesh.positions.length));
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = positions[i + k] as number;
        if (v < (min[k] as number)) min[k] = v;
        if (v > (max[k] as number)) max[k] = v;
      }
    }
    const position = accessors.length;
    accessors.push({
      bufferView: addView(positions, ARRAY_BUFFER),
      componentType: FLOAT,
      count: n,
      type: 'VEC3',
      min,
      max,
    });
    const normal = accessors.length;
    accessors.push({ bufferView: addView(normals, ARRAY_BUFFER), componentType: FLOAT, count: n, type: 'VEC3' });
    const indices = accessors.length;
    accessors.push({
      bufferView: addView(mesh.indices, ELEMENT_ARRAY_BUFFER),
      componentType: UNSIGNED_INT,
      count: mesh.indices.length,
      type: 'SCALAR',
    });
    gltfMeshes.push({ name, primitives: [{ attributes: { POSITION: position, NORMAL: normal }, indices, mode: 4 }] });
    nodes.push({ name, mesh: gltfMeshes.length - 1 });
  }
  const asset: Record<string, unknown> = { version: '2.0', generator: '@insilico/mesh' };
  if (options.extras !== undefined) asset.extras = options.extras;
  const json = {
    asset,
    scene: 0,
    scenes: [{ nodes: nodes.map((_, i) => i) }],
    nodes,
    meshes: gltfMeshes,
    accessors,
    bufferViews,
    buffers: [{ byteLength: offset }],
  };
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (jsonBytes.length + 3) & ~3;
  const binLength = (offset + 3) & ~3;
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, CHUNK_JSON, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.length, 20 + jsonLength);
  const binStart = 20 + jsonLength;
  view.setUint32(binStart, binLength, true);
  view.setUint32(binStart + 4, CHUNK_BIN, true);
  let o = binStart + 8;
  for (const block of blocks) {
    out.set(block, o);
    o += block.length;
  }
  return out;
}
