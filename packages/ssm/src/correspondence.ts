import type { TriangleMesh } from '@insilico/mesh';
import { SsmInputError } from './errors';

/** Shapes in correspondence: vertex i of every shape is the same anatomical point. */
export interface CorrespondingShapes {
  /** Vertices per shape. */
  readonly vertexCount: number;
  /** The shared triangles (three vertex indices each). */
  readonly indices: Uint32Array;
  /** Per shape, packed xyz of its vertices (mm), a copy in double precision. */
  readonly shapes: readonly Float64Array[];
}

/**
 * Correspondence by shared topology: accepted only when every mesh has the same vertex count and the very same
 * triangle index buffer, so that vertex i is one anatomical point on every shape (true of the built-in synthetic
 * patients' meshes per organ and phase: docs/decisions/ssm.md). Meshes built another way (imaging) need
 * registration first; they are refused here rather than paired vertex by vertex by luck.
 * @throws SsmInputError when the meshes do not share one topology, or fewer than two are given.
 */
export function correspondByTopology(meshes: readonly TriangleMesh[]): CorrespondingShapes {
  const first = meshes[0];
  if (!first || meshes.length < 2) throw new SsmInputError('A shape model needs at least two shapes.');
  const vertexCount = first.positions.length / 3;
  if (!Number.isInteger(vertexCount) || vertexCount < 4)
    throw new SsmInputError('Each shape needs at least four vertices.');
  const indices = first.indices;
  meshes.forEach((mesh, k) => {
    if (mesh.positions.length !== first.positions.length || !sameIndices(mesh.indices, indices))
      throw new SsmInputError(
        `Shape ${k + 1} does not share the first shape's topology, so its vertices do not correspond.`,
      );
    for (let i = 0; i < mesh.positions.length; i++)
      if (!Number.isFinite(mesh.positions[i] ?? Number.NaN))
        throw new SsmInputError(`Shape ${k + 1} has a vertex that is not a finite number.`);
  });
  return { vertexCount, indices: Uint32Array.from(indices), shapes: meshes.map((m) => Float64Array.from(m.positions)) };
}

function sameIndices(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
