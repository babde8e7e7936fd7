import { describe, expect, it } from 'vitest';
import { ellipsePerimeter_mm } from '@insilico/anatomy';
import { enclosedVolume_mm3, type Vec3 } from '@insilico/mesh';
import {
  angleAt_deg,
  chordThrough,
  chordTowards,
  curveLength_mm,
  lumenSection,
  measureLumen,
  planeAngle_deg,
  planeThroughPoints,
  sectionMesh,
  signedDistanceToPlane,
  type Plane,
  type SectionMeasures,
} from '../src/index';
import { cone, ellipticCylinder, merged, sphere, translated } from './shapes';

/** Relative difference |a − b| / |b|. */
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
/** The tolerance for analytic shapes: 0.5 %. */
const TOL = 0.005;

function measured(mesh: Parameters<typeof lumenSection>[0], plane: Plane): SectionMeasures {
  const lumen = lumenSection(mesh, plane);
  if (typeof lumen === 'string') throw new Error(`section failed: ${lumen}`);
  return measureLumen(lumen);
}

/** Every quantity of an ellipse of semi-axes a ≥ b against its analytic value within the tolerance. */
function expectEllipse(m: SectionMeasures, a: number, b: number, tol = TOL): void {
  const perimeter = ellipsePerimeter_mm(2 * a, 2 * b);
  expect(rel(m.area_mm2, Math.PI * a * b)).toBeLessThan(tol);
  expect(rel(m.perimeter_mm, perimeter)).toBeLessThan(tol);
  expect(rel(m.minDiameter_mm, 2 * b)).toBeLessThan(tol);
  expect(rel(m.maxDiameter_mm, 2 * a)).toBeLessThan(tol);
  expect(rel(m.meanDiameter_mm, a + b)).toBeLessThan(tol);
  expect(rel(m.areaDiameter_mm, 2 * Math.sqrt(a * b))).toBeLessThan(tol);
  expect(rel(m.perimeterDiameter_mm, perimeter / Math.PI)).toBeLessThan(tol);
}

describe('plane sections of analytic shapes', () => {
  it('a circular cylinder cut across its axis is a circle: area πr², perimeter 2πr, every diameter 2r', () => {
    const m = measured(ellipticCylinder(12, 12, 40, 128), { point: [0, 0, 3], normal: [0, 0, 1] });
    expectEllipse(m, 12, 12);
    expect(m.centroid[2]).toBeCloseTo(3, 9);
  });

  it('an elliptic cylinder (an annulus-like 28 × 22 mm ellipse) matches πab, Ramanujan’s perimeter and its axes', () => {
    expectEllipse(measured(ellipticCylinder(14, 11, 30, 128), { point: [0, 0, -2], normal: [0, 0, 1] }), 14, 11);
  });

  it('a circular cylinder cut by a plane through three points tilted 35° is an ellipse of semi-axes r/cos θ and r', () => {
    const r = 12;
    const theta = (35 * Math.PI) / 180;
    // Three points of the tilted plane z = x·tan θ, off the axis.
    const z = (x: number): number => x * Math.tan(theta);
    const plane = planeThroughPoints([5, 0, z(5)], [-3, 4, z(-3)], [-3, -4, z(-3)]) as Plane;
    expect(plane).toBeDefined();
    const m = measured(ellipticCylinder(r, r, 80, 256, 41), plane);
    expectEllipse(m, r / Math.cos(theta), r);
  });

  it('a chord through the centre towards a point of an elliptic section is 2ab/√(b²cos²φ + a²sin²φ)', () => {
    const a = 14;
    const b = 11;
    const lumen = lumenSection(ellipticCylinder(a, b, 30, 256), { point: [0, 0, 1], normal: [0, 0, 1] });
    if (typeof lumen === 'string') throw new Error(lumen);
    for (const deg of [0, 30, 60, 90, 135]) {
      const phi = (deg * Math.PI) / 180;
      const towards: Vec3 = [40 * Math.cos(phi), 40 * Math.sin(phi), 1];
      const exact = (2 * a * b) / Math.sqrt((b * Math.cos(phi)) ** 2 + (a * Math.sin(phi)) ** 2);
      expect(rel(chordTowards(lumen, towards), exact)).toBeLessThan(TOL);
    }
    expect(chordTowards(lumen, [0, 0, 1])).toBeNaN();
  });

  it('a cone cut across its axis at height z is a circle of radius R(1 − z/H)', () => {
    const m = measured(cone(15, 40, 128, 20), { point: [0, 0, 10], normal: [0, 0, 1] });
    expectEllipse(m, 15 * (1 - 10 / 40), 15 * (1 - 10 / 40));
  });

  it('the section converges with refinement: the area error falls about fourfold per doubling of the ring', () => {
    const errors = [16, 32, 64, 128].map((n) =>
      rel(measured(ellipticCylinder(14, 11, 30, n), { point: [0, 0, 0.5], normal: [0, 0, 1] }).area_mm2, Math.PI * 154),
    );
    for (let i = 1; i < errors.length; i++) {
      const ratio = (errors[i - 1] as number) / (errors[i] as number);
      expect(ratio).toBeGreaterThan(3.5);
      expect(ratio).toBeLessThan(4.5);
    }
  });

  it('chains separate components into separate contours and measures the one around the plane’s point', () => {
    const two = merged(ellipticCylinder(10, 10, 20, 64), translated(ellipticCylinder(5, 5, 20, 64), 40, 0, 0));
    const plane: Plane = { point: [40, 0, 0], normal: [0, 0, 1] };
    expect(sectionMesh(two, plane).contours.filter((c) => c.closed)).toHaveLength(2);
    expect(measured(two, plane).perimeterDiameter_mm).toBeCloseTo(10, 1);
    expect(lumenSection(two, { point: [20, 0, 0], normal: [0, 0, 1] })).toBe('outside');
    expect(lumenSection(two, { point: [0, 0, 50], normal: [0, 0, 1] })).toBe('misses');
  });

  it('says the section is open when the plane crosses a hole in the mesh', () => {
    const mesh = ellipticCylinder(10, 10, 20, 32);
    // Drop one side-wall triangle of the middle band (the cut at z = 0.1 crosses it).
    const band = 4;
    const first = (32 + band * 32 * 2) * 3;
    const indices = Uint32Array.from([...mesh.indices.slice(0, first), ...mesh.indices.slice(first + 3)]);
    expect(lumenSection({ positions: mesh.positions, indices }, { point: [0, 0, 0.1], normal: [0, 0, 1] })).toBe(
      'open',
    );
  });

  it('the sphere’s enclosed volume converges to 4/3·πr³ with refinement', () => {
    const exact = (4 / 3) * Math.PI * 10 ** 3;
    const errors = [16, 32, 64, 128].map((n) => rel(enclosedVolume_mm3(sphere(10, n, n / 2)), exact));
    expect(errors[3]).toBeLessThan(TOL);
    for (let i = 1; i < errors.length; i++)
      expect((errors[i - 1] as number) / (errors[i] as number)).toBeGreaterThan(3);
  });

  it('the cone’s enclosed volume is πR²H/3', () => {
    expect(rel(enclosedVolume_mm3(cone(15, 40, 256, 64)), (Math.PI * 225 * 40) / 3)).toBeLessThan(TOL);
  });
});

describe('points, planes, angles, curves', () => {
  it('a chord through a polygon vertex exactly is found (the diagonal of a square)', () => {
    const square = Float64Array.from([1, 1, -1, 1, -1, -1, 1, -1]);
    expect(chordThrough(square, 0, 0, Math.PI / 4)).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(chordThrough(square, 0, 0, (3 * Math.PI) / 4)).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(chordThrough(square, 5, 5, 0)).toBeNaN();
  });

  it('three collinear or coincident points define no plane', () => {
    expect(planeThroughPoints([0, 0, 0], [1, 1, 1], [2, 2, 2])).toBeUndefined();
    expect(planeThroughPoints([1, 2, 3], [1, 2, 3], [4, 5, 6])).toBeUndefined();
  });

  it('the plane through three points has their centroid and the right-handed normal; heights are signed', () => {
    const plane = planeThroughPoints([0, 0, 5], [3, 0, 5], [0, 3, 5]) as Plane;
    expect(plane.point).toEqual([1, 1, 5]);
    expect(plane.normal).toEqual([0, 0, 1]);
    expect(signedDistanceToPlane([7, -2, 17.5], plane)).toBeCloseTo(12.5, 12);
    expect(signedDistanceToPlane([0, 0, 1], plane)).toBeCloseTo(-4, 12);
  });

  it('angles at a vertex: 90° in a 3-4-5 triangle, 60° in an equilateral one, 180° straight, none for a zero ray', () => {
    expect(angleAt_deg([0, 0, 0], [3, 0, 0], [0, 4, 0])).toBeCloseTo(90, 10);
    expect(angleAt_deg([0, 0, 0], [1, 0, 0], [0.5, Math.sqrt(3) / 2, 0])).toBeCloseTo(60, 10);
    expect(angleAt_deg([0, 0, 0], [1, 0, 0], [-2, 0, 0])).toBeCloseTo(180, 10);
    expect(angleAt_deg([1, 1, 1], [1, 1, 1], [0, 0, 0])).toBeUndefined();
  });

  it('the angle between planes ignores the normals’ sense and folds into 0–90°', () => {
    const t = (25 * Math.PI) / 180;
    const tilted: Plane = { point: [0, 0, 0], normal: [Math.sin(t), 0, Math.cos(t)] };
    expect(planeAngle_deg(tilted, { point: [0, 0, 9], normal: [0, 0, -1] })).toBeCloseTo(25, 10);
  });

  it('a helix sampled finely has the analytic length 2π·turns·√(r² + c²) within 0.5 %', () => {
    const r = 10;
    const c = 4 / (2 * Math.PI); // 4 mm pitch
    const turns = 3;
    const points: Vec3[] = Array.from({ length: 201 }, (_, i) => {
      const t = (2 * Math.PI * turns * i) / 200;
      return [r * Math.cos(t), r * Math.sin(t), c * t];
    });
    expect(rel(curveLength_mm(points), 2 * Math.PI * turns * Math.hypot(r, c))).toBeLessThan(TOL);
  });
});
