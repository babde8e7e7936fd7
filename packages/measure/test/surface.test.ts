import { describe, expect, it } from 'vitest';
import {
  buildPatientMeshes,
  DEFAULT_POPULATION_SEED,
  generatePatient,
  type Landmark,
  type PatientMeshes,
} from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import {
  anchorSurfacePoint,
  closestPointOnMesh,
  closestPointOnTriangle,
  landmarkFrameOf,
  PatientMeasurer,
  SURFACE_TRANSFER_TOLERANCE_MM,
  transferSurfacePoint,
  type MeasurementDefinition,
  type SurfacePoint,
} from '../src/index';
import { distance } from '../src/vec3';
import { sphere } from './shapes';

/** A small deterministic generator for test points. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('the nearest point of a triangle', () => {
  it('is no farther than any of 20,000 points sampled on the triangle, and within the sampling step of the nearest', () => {
    const random = lcg(7);
    const r = () => 20 * random() - 10;
    for (let trial = 0; trial < 40; trial++) {
      const [a, b, c, p]: Vec3[] = Array.from({ length: 4 }, () => [r(), r(), r()] as const);
      const q = closestPointOnTriangle(p!, a!, b!, c!);
      let sampled = Number.POSITIVE_INFINITY;
      const n = 200;
      for (let i = 0; i <= n; i++)
        for (let j = 0; i + j <= n; j++) {
          const [u, v] = [i / n, j / n];
          const s: Vec3 = [0, 1, 2].map((k) => a![k]! + u * (b![k]! - a![k]!) + v * (c![k]! - a![k]!)) as never;
          sampled = Math.min(sampled, distance(p!, s));
        }
      const mine = distance(p!, q);
      expect(mine).toBeLessThanOrEqual(sampled + 1e-9);
      // The sampling grid's step is at most the longest edge / 200.
      const step = Math.max(distance(a!, b!), distance(b!, c!), distance(a!, c!)) / n;
      expect(sampled - mine).toBeLessThanOrEqual(step);
    }
  });

  it('answers the distance from a polyhedral sphere between the sphere’s and the inscribed polyhedron’s', () => {
    const mesh = sphere(10, 64, 31);
    for (const p of [
      [15, 0, 0],
      [0, -13, 4],
      [2, 3, 1],
    ] as Vec3[]) {
      const r = Math.hypot(...p);
      const { distance: d } = closestPointOnMesh(mesh, p);
      // Facets lie at most the sagitta (r(1 − cos(π/64)) ≈ 0.012 mm) inside the sphere.
      expect(Math.abs(d - Math.abs(r - 10))).toBeLessThan(0.02);
    }
  });
});

/** x ↦ M x + t, a general affine map: anisotropic scale, shear, rotation, translation. */
const M = [
  [1.12, 0.08, -0.05],
  [-0.06, 0.91, 0.1],
  [0.04, -0.07, 1.05],
];
const t: Vec3 = [12, -7, 30];
const affine = (p: Vec3): Vec3 =>
  [0, 1, 2].map((i) => M[i]![0]! * p[0] + M[i]![1]! * p[1] + M[i]![2]! * p[2] + t[i]!) as unknown as Vec3;

/** The anatomy under the affine map (meshes and landmark positions; plane normals are not used here). */
function mapped(meshes: PatientMeshes): PatientMeshes {
  return {
    ...meshes,
    organs: meshes.organs.map(({ organ, mesh }) => {
      const positions = Float64Array.from(mesh.positions);
      for (let i = 0; i < positions.length; i += 3)
        positions.set(affine([...positions.subarray(i, i + 3)] as never), i);
      return { organ, mesh: { positions, indices: mesh.indices } };
    }),
    landmarks: meshes.landmarks.map((l): Landmark => ({ name: l.name, position: affine(l.position) })),
  };
}

describe('a point picked on the surface, carried by its landmark frame', () => {
  const patient = generatePatient(DEFAULT_POPULATION_SEED, 3);
  const source = buildPatientMeshes(patient, 'end-diastole');
  const root = source.organs.find((o) => o.organ === 'aortic_root')!.mesh;
  const ostium = source.landmarks.find((l) => l.name === 'left_coronary_ostium')!.position;
  // A point on the root's wall 4 mm above the left ostium.
  const picked = closestPointOnMesh(root, [ostium[0], ostium[1], ostium[2] + 4]).point;
  const anchor = anchorSurfacePoint(source, 'aortic_root', picked);
  if (!('frame' in anchor)) throw new Error(anchor.failure);
  const surface: SurfacePoint = { organ: 'aortic_root', position: picked, frame: anchor.frame };

  it('is anchored on four distinct landmarks, on the surface', () => {
    expect(anchor.offSurface_mm).toBeLessThan(1e-9);
    expect(new Set(anchor.frame.landmarks).size).toBe(4);
  });

  it('lands where it was picked on its own anatomy', () => {
    const at = transferSurfacePoint(surface, (n) => source.landmarks.find((l) => l.name === n)?.position, root);
    if ('failure' in at) throw new Error(at.failure);
    expect(distance(at.point, picked)).toBeLessThan(1e-9);
  });

  it('follows any affine change of the anatomy exactly (the method is affine-invariant)', () => {
    const target = mapped(source);
    const targetRoot = target.organs.find((o) => o.organ === 'aortic_root')!.mesh;
    const at = transferSurfacePoint(surface, (n) => target.landmarks.find((l) => l.name === n)?.position, targetRoot);
    if ('failure' in at) throw new Error(at.failure);
    expect(distance(at.point, affine(picked))).toBeLessThan(1e-6);
    // A distance from the picked point to a landmark, measured on both anatomies.
    const definition: MeasurementDefinition = {
      key: 'picked-to-stj',
      name: 'Picked point to STJ',
      description: '',
      phase: 'end-diastole',
      geometry: { type: 'distance', from: { surface }, to: { landmark: 'sinotubular_junction' } },
    };
    const stj = (m: PatientMeshes) => m.landmarks.find((l) => l.name === 'sinotubular_junction')!.position;
    const measured = (m: PatientMeshes) => {
      const outcome = new PatientMeasurer(m).measure(definition);
      if (!('value' in outcome)) throw new Error(outcome.failure);
      return outcome.value;
    };
    expect(measured(source)).toBeCloseTo(distance(picked, stj(source)), 9);
    expect(measured(target)).toBeCloseTo(distance(affine(picked), affine(stj(source))), 6);
  });

  it('moves with a landmark corrected by hand', () => {
    const [first] = anchor.frame.landmarks;
    const moved = source.landmarks.find((l) => l.name === first)!.position;
    const definition: MeasurementDefinition = {
      key: 'picked-to-apex',
      name: 'Picked point to apex',
      description: '',
      phase: 'end-diastole',
      geometry: { type: 'distance', from: { surface }, to: { landmark: 'lv_apex' } },
    };
    const plain = new PatientMeasurer(source).measure(definition);
    const corrected = new PatientMeasurer(source, {
      [first]: { position: [moved[0] + 2, moved[1], moved[2]] },
    }).measure(definition);
    expect(plain).not.toEqual(corrected);
  });

  it('takes the frame from nearby landmarks: none farther than the far side of the aortic root', () => {
    for (const name of anchor.frame.landmarks) {
      const l = source.landmarks.find((x) => x.name === name)!;
      expect(distance(l.position, picked)).toBeLessThan(40);
    }
  });
});

describe('where the landmarks do not carry the point (the failure mode)', () => {
  // Four landmarks around a sphere of radius 10; the same landmarks around a sphere of radius 20.
  const landmarks: Landmark[] = [
    { name: 'aortic_annulus', position: [0, 0, -12] },
    { name: 'sinotubular_junction', position: [0, 0, 12] },
    { name: 'left_coronary_ostium', position: [12, 0, 0] },
    { name: 'right_coronary_ostium', position: [-6, 10, 0] },
  ];
  const at = (n: string) => landmarks.find((l) => l.name === n)?.position;
  const frame = landmarkFrameOf([10, 0, 0], landmarks)!;
  const point: SurfacePoint = { organ: 'aortic_root', position: [10, 0, 0], frame };

  it('says how far from the surface the point lands, beyond the tolerance', () => {
    const big = transferSurfacePoint(point, at, sphere(20, 64, 31));
    expect(big).toEqual({ failure: expect.stringContaining('lands 10.0 mm from the aortic root surface') });
    expect(SURFACE_TRANSFER_TOLERANCE_MM).toBeLessThan(10);
    // Within the tolerance, the point is put on the surface.
    const near = transferSurfacePoint(point, at, sphere(12, 64, 31));
    if ('failure' in near) throw new Error(near.failure);
    expect(Math.hypot(...near.point)).toBeCloseTo(12, 1);
  });

  it('names a missing landmark and a frame that has gone flat', () => {
    const missing = transferSurfacePoint(
      point,
      (n) => (n === frame.landmarks[2] ? undefined : at(n)),
      sphere(10, 32, 15),
    );
    expect(missing).toEqual({
      failure: expect.stringMatching(/^The anatomy has no .* landmark to carry the picked point\.$/),
    });
    const flat = transferSurfacePoint(
      point,
      (n) => {
        const p = at(n)!;
        return [p[0], p[1], 0];
      },
      sphere(10, 32, 15),
    );
    expect(flat).toEqual({ failure: expect.stringContaining('lie nearly in one plane here') });
  });

  it('has no frame where no four landmarks span a volume', () => {
    const inLine: Landmark[] = landmarks.map((l, i) => ({ name: l.name, position: [0, 0, 5 * i] }));
    expect(landmarkFrameOf([1, 0, 0], inLine)).toBeUndefined();
  });
});
