import { measureMeshQuality, meshFindings, type MeshFinding, type MeshQuality } from './meshQuality';
import { parseStl, parseStlChunks, type StlFormat, type StlParseResult } from './stlParse';
import type { StlRefusal } from './stlRefusal';
import type { TriangleMesh } from './types';

/**
 * An uploaded STL checked end to end: refused with a reason, or accepted with its mesh, metrics and findings.
 * Refused: no mesh can be trusted (empty, truncated, count beyond the file, trailing bytes, NaN/∞ coordinates,
 * broken ASCII structure, no triangles). Accepted with findings: the geometry is readable but not clean
 * (holes, non-manifold edges, flipped or zero-area triangles, inside out); see docs/decisions/stl-validation.md.
 */
export type StlValidation =
  | {
      readonly ok: true;
      readonly format: StlFormat;
      readonly mesh: TriangleMesh;
      readonly quality: MeshQuality;
      readonly findings: readonly MeshFinding[];
    }
  | { readonly ok: false; readonly refusal: StlRefusal };

/** Validates a whole file in memory. Never throws for any bytes. */
export function validateStl(bytes: Uint8Array): StlValidation {
  return measured(parseStl(bytes));
}

/** Validates a file read in chunks (see `parseStlChunks`); `byteLength` is its stored size. */
export async function validateStlChunks(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  byteLength: number,
): Promise<StlValidation> {
  return measured(await parseStlChunks(chunks, byteLength));
}

function measured(parsed: StlParseResult): StlValidation {
  if (!parsed.ok) return parsed;
  const quality = measureMeshQuality(parsed.mesh);
  return { ok: true, format: parsed.format, mesh: parsed.mesh, quality, findings: meshFindings(quality) };
}
