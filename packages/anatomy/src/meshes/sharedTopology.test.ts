import { describe, expect, it } from 'vitest';
import { defaultPopulation } from '../population/generate';
import { buildPatientMeshes } from './buildPatientMeshes';
import { ORGANS } from './organs';

// Statistical shape models (@insilico/ssm, docs/decisions/ssm.md) take vertex i of an organ to be one anatomical
// point on every patient: this pins that every patient's mesh of an organ has the same triangles, at every phase.
describe('organ meshes share one topology across patients and phases', () => {
  it('has identical index buffers and vertex counts per organ', () => {
    const patients = defaultPopulation().patients.filter((_, i) => i % 250 === 0);
    const meshes = patients.flatMap((p) => [
      buildPatientMeshes(p, 'end-diastole'),
      buildPatientMeshes(p, 'end-systole'),
      buildPatientMeshes(p, { kind: 'cine', frame: 3, frameCount: 12 }),
    ]);
    for (const organ of ORGANS) {
      const of = (k: number) => meshes[k]!.organs.find((o) => o.organ === organ)!.mesh;
      const first = of(0);
      for (let k = 1; k < meshes.length; k++) {
        expect(of(k).positions.length).toBe(first.positions.length);
        const indices = of(k).indices;
        // One comparison per organ and mesh (toEqual on 23k-element arrays takes seconds).
        expect(indices.length === first.indices.length && indices.every((v, i) => v === first.indices[i])).toBe(true);
      }
    }
  });
});
