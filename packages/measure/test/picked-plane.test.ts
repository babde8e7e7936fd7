import { describe, expect, it } from 'vitest';
import type { Landmark, LandmarkName, PatientMeshes } from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import {
  anchorSurfacePoint,
  MIN_PLANE_SPREAD_MM,
  PatientMeasurer,
  planeSpread_mm,
  threePointPlane,
  type MeasurementDefinition,
  type MeasurementGeometry,
  type PlaneRef,
  type PointRef,
} from '../src/index';
import { ellipticCylinder } from './shapes';

/** Relative tolerance of the analytic checks (issue 23: 0.5 %). */
const TOL = 0.005;
const rel = (value: number, expected: number) => Math.abs(value - expected) / Math.abs(expected);

describe('how far three points are from one line', () => {
  it('is the triangle’s least altitude: 12/5 mm in a 3-4-5 triangle, 5√3 mm in an equilateral one of side 10 mm', () => {
    expect(planeSpread_mm([0, 0, 0], [3, 0, 0], [0, 4, 0])).toBeCloseTo(12 / 5, 12);
    expect(planeSpread_mm([0, 0, 0], [10, 0, 0], [5, 5 * Math.sqrt(3), 0])).toBeCloseTo(5 * Math.sqrt(3), 12);
  });

  it('is the middle point’s distance from the line through the outer two, wherever the points lie in space', () => {
    // 1.5 mm off the middle of a 40 mm segment along (1, 2, 2)/3, in a direction perpendicular to it.
    const along: Vec3 = [1 / 3, 2 / 3, 2 / 3];
    const off: Vec3 = [2 / 3, 1 / 3, -2 / 3];
    const p = (s: number, d: number): Vec3 => [
      5 + s * along[0] + d * off[0],
      -8 + s * along[1] + d * off[1],
      30 + s * along[2] + d * off[2],
    ];
    expect(planeSpread_mm(p(0, 0), p(40, 0), p(20, 1.5))).toBeCloseTo(1.5, 12);
    expect(planeSpread_mm(p(0, 0), p(40, 0), p(13, 0))).toBeLessThan(1e-12);
    expect(planeSpread_mm(p(0, 0), p(0, 0), p(13, 7))).toBe(0);
    expect(planeSpread_mm(p(0, 0), p(0, 0), p(0, 0))).toBe(0);
  });

  it('a plane through points 1 mm from one line is refused with their spread; 5 mm from it, it is their plane', () => {
    expect(MIN_PLANE_SPREAD_MM).toBe(2);
    const near = threePointPlane([0, 0, 0], [30, 0, 0], [15, 1, 0]);
    expect('spread_mm' in near && near.spread_mm).toBeCloseTo(1, 12);
    const far = threePointPlane([0, 0, 0], [30, 0, 0], [15, 0, 5]);
    if (!('plane' in far)) throw new Error('no plane');
    expect(far.plane.point).toEqual([15, 0, 5 / 3]);
    expect(far.plane.normal[0]).toBeCloseTo(0, 12);
    expect(far.plane.normal[1]).toBeCloseTo(-1, 12);
    expect(far.plane.normal[2]).toBeCloseTo(0, 12);
  });
});

/**
 * A cylinder of radius R along z standing for an organ, with six named landmarks around it (an octahedron) to carry
 * picked points, and three points picked on its wall on the plane z = x·tan θ.
 */
const R = 12;
const THETA = (30 * Math.PI) / 180;
const RING = 384;
const cylinder = ellipticCylinder(R, R, 40, RING);
const landmarks: Landmark[] = (
  [
    ['aortic_annulus', [0, 0, -20]],
    ['sinotubular_junction', [0, 0, 20]],
    ['right_coronary_sinus', [16, 0, 0]],
    ['left_coronary_sinus', [-16, 0, 0]],
    ['non_coronary_sinus', [0, 16, 0]],
    ['lvot', [0, -16, 0]],
  ] as [LandmarkName, Vec3][]
).map(([name, position]) => ({ name, position }));
const anatomy: PatientMeshes = {
  patientId: 'cylinder',
  modelVersion: 'test',
  phase: { kind: 'end-diastole' },
  contraction: 0,
  frame: 'LPS-mm-ribcage-centre',
  organs: [{ organ: 'aortic_root', mesh: cylinder }],
  landmarks,
};
// At ring vertices (every 128th of 384), so exactly on the polygonal wall: 0°, 120°, 240°.
const onWall = (deg: number): Vec3 => {
  const t = (deg * Math.PI) / 180;
  return [R * Math.cos(t), R * Math.sin(t), R * Math.cos(t) * Math.tan(THETA)];
};
const picked = (p: Vec3): PointRef => {
  const anchor = anchorSurfacePoint(anatomy, 'aortic_root', p);
  if ('failure' in anchor) throw new Error(anchor.failure);
  expect(anchor.offSurface_mm).toBeLessThan(1e-9);
  return { surface: { organ: 'aortic_root', position: p, frame: anchor.frame } };
};
const plane: PlaneRef = { kind: 'three-points', points: [picked(onWall(0)), picked(onWall(120)), picked(onWall(240))] };
const definition = (key: string, geometry: MeasurementGeometry): MeasurementDefinition => ({
  key,
  name: key,
  description: '',
  phase: 'end-diastole',
  geometry,
});
const section = (quantity: 'area' | 'perimeter' | 'min-diameter' | 'max-diameter') =>
  definition(quantity, { type: 'section', organ: 'aortic_root', plane, quantity });
const height = definition('height', { type: 'height', point: { landmark: 'sinotubular_junction' }, plane });
const value = (measurer: PatientMeasurer, d: MeasurementDefinition): number => {
  const outcome = measurer.measure(d);
  if ('failure' in outcome) throw new Error(outcome.failure);
  return outcome.value;
};

/** x ↦ M x + t: anisotropic scale, shear, rotation, translation (as the surface-point tests use). */
const M = [
  [1.12, 0.08, -0.05],
  [-0.06, 0.91, 0.1],
  [0.04, -0.07, 1.05],
] as const;
const m = (i: number, j: number): number => M[i as 0 | 1 | 2][j as 0 | 1 | 2];
const shift: Vec3 = [12, -7, 30];
const affine = (p: Vec3): Vec3 =>
  [0, 1, 2].map((i) => m(i, 0) * p[0] + m(i, 1) * p[1] + m(i, 2) * p[2] + shift[i]!) as never;
/** det M and M⁻ᵀ n (cofactor matrix / det), for the area and normal of a mapped plane region. */
const cofactor = (i: number, j: number): number => {
  const [r1, r2] = [0, 1, 2].filter((k) => k !== i) as [number, number];
  const [c1, c2] = [0, 1, 2].filter((k) => k !== j) as [number, number];
  return (-1) ** (i + j) * (m(r1, c1) * m(r2, c2) - m(r1, c2) * m(r2, c1));
};
const detM = M[0][0] * cofactor(0, 0) + M[0][1] * cofactor(0, 1) + M[0][2] * cofactor(0, 2);
const inverseTransposeTimes = (n: Vec3): Vec3 =>
  [0, 1, 2].map((i) => (cofactor(i, 0) * n[0] + cofactor(i, 1) * n[1] + cofactor(i, 2) * n[2]) / detM) as never;

describe('a plane through three points picked on a surface, computed per anatomy', () => {
  const own = new PatientMeasurer(anatomy);
  // The section of a circular cylinder by a plane tilted θ is an ellipse of semi-axes R / cos θ and R.
  const a = R / Math.cos(THETA);
  const b = R;

  it('cuts the cylinder in the ellipse of semi-axes R/cos θ and R: area, Ramanujan perimeter, diameters within 0.5 %', () => {
    const h = ((a - b) / (a + b)) ** 2;
    expect(rel(value(own, section('area')), Math.PI * a * b)).toBeLessThan(TOL);
    expect(
      rel(value(own, section('perimeter')), Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h)))),
    ).toBeLessThan(TOL);
    expect(rel(value(own, section('min-diameter')), 2 * b)).toBeLessThan(TOL);
    expect(rel(value(own, section('max-diameter')), 2 * a)).toBeLessThan(TOL);
    // The landmark at (0, 0, 20) lies 20 cos θ above the plane (normal (−sin θ, 0, cos θ): the points counter-clockwise).
    expect(value(own, height)).toBeCloseTo(20 * Math.cos(THETA), 9);
  });

  it('on an anatomy mapped by a general affine map, is the mapped plane: area × |det M|·|M⁻ᵀn|, height / |M⁻ᵀn|', () => {
    const mapped: PatientMeshes = {
      ...anatomy,
      organs: [
        {
          organ: 'aortic_root',
          mesh: {
            positions: Float64Array.from({ length: cylinder.positions.length }, (_, i) => {
              const v = Math.floor(i / 3) * 3;
              return affine([cylinder.positions[v]!, cylinder.positions[v + 1]!, cylinder.positions[v + 2]!])[i % 3]!;
            }),
            indices: cylinder.indices,
          },
        },
      ],
      landmarks: landmarks.map((l) => ({ name: l.name, position: affine(l.position) })),
    };
    const other = new PatientMeasurer(mapped);
    const n: Vec3 = [-Math.sin(THETA), 0, Math.cos(THETA)];
    const scale = Math.hypot(...inverseTransposeTimes(n));
    // Independent of the mesh: the ellipse's analytic area under the map.
    expect(rel(value(other, section('area')), Math.PI * a * b * Math.abs(detM) * scale)).toBeLessThan(TOL);
    expect(value(other, height)).toBeCloseTo((20 * Math.cos(THETA)) / scale, 6);
  });

  it('fails, saying why, when the picked points lie within 2 mm of one line', () => {
    // Three points 1.875° apart on the wall at one height: the middle one 0.005 mm from the chord.
    const close: Vec3[] = [0, 1.875, 3.75].map((deg) => {
      const t = (deg * Math.PI) / 180;
      return [R * Math.cos(t), R * Math.sin(t), 5];
    });
    const flat: PlaneRef = { kind: 'three-points', points: close.map(picked) as [PointRef, PointRef, PointRef] };
    const outcome = own.measure(
      definition('flat', { type: 'section', organ: 'aortic_root', plane: flat, quantity: 'area' }),
    );
    expect(outcome).toEqual({
      failure:
        'The three points of the plane lie within 2 mm of one line here (the middle one is 0.0 mm from the line ' +
        'through the other two), so they do not define a plane.',
    });
  });
});
