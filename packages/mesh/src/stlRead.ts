import type { TriangleMesh } from './types';
import { parseStl } from './stlParse';
import type { StlRefusal } from './stlRefusal';

/** Error for bytes that are not a valid STL; `refusal` says why (the same reason `parseStl` gives). */
export class StlParseError extends Error {
  override readonly name = 'StlParseError';
  constructor(readonly refusal: StlRefusal) {
    super(refusal.reason);
  }
}

/**
 * Reads a binary or ASCII STL into an indexed mesh (Float32Array positions, coordinates as stored, normally mm),
 * throwing `StlParseError` for a refused file. Corners with bit-identical coordinates are welded into one vertex
 * (−0 equals +0); stored facet normals are ignored (orientation comes from the vertex order). See `parseStl` for
 * the format rules; this is its throwing form for code that only handles good files (tests, fixtures).
 */
export function readStl(bytes: Uint8Array): TriangleMesh {
  const result = parseStl(bytes);
  if (!result.ok) throw new StlParseError(result.refusal);
  return result.mesh;
}
