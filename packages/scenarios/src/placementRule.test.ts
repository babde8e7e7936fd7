import { buildPatientMeshes, generatePatient, landmarkOf } from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import { describe, expect, it } from 'vitest';
import { placePoint } from './device';
import { placeByRule, snapTransform } from './placementRule';

const patient = generatePatient(20261125, 7);
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
/** Where the placement sends the device's +Z axis (a direction: the image of the axis less that of the origin). */
const axisOf = (t: ReturnType<typeof snapTransform>): Vec3 => {
  const o = placePoint(t, [0, 0, 0]);
  const z = placePoint(t, [0, 0, 1]);
  return [z[0] - o[0], z[1] - o[1], z[2] - o[2]];
};

describe('snapTransform (the scene’s "Snap to landmark" as a rule)', () => {
  it('turns +Z onto the plane normal and moves the centre along it by the depth', () => {
    for (const normal of [unit([0.3, -0.5, 0.8]), unit([1, 0, 0]), unit([0, 0, -1]), unit([-0.2, 0.9, -0.1])]) {
      const t = snapTransform([10, 20, 30], normal, 4);
      const axis = axisOf(t);
      for (let k = 0; k < 3; k++) expect(axis[k]).toBeCloseTo(normal[k]!, 12);
      expect(t.position[0]).toBeCloseTo(10 + 4 * normal[0], 12);
      expect(t.position[1]).toBeCloseTo(20 + 4 * normal[1], 12);
      expect(t.position[2]).toBeCloseTo(30 + 4 * normal[2], 12);
      expect(Math.hypot(...t.quaternion)).toBeCloseTo(1, 12);
      expect(t.scale).toEqual([1, 1, 1]);
    }
  });
});

describe('placeByRule', () => {
  const meshes = buildPatientMeshes(patient, 'end-diastole');
  const annulus = landmarkOf(meshes, 'aortic_annulus');

  it('centres the device on the aortic annulus, aligned with its normal, with the depth offset', () => {
    const placed = placeByRule(patient, 'end-diastole', {
      landmark: 'aortic_annulus',
      depth_mm: -3,
      annulusRange_mm: null,
    });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const n = annulus.normal!;
    for (let k = 0; k < 3; k++) expect(placed.transform.position[k]).toBeCloseTo(annulus.position[k]! - 3 * n[k]!, 9);
    const axis = axisOf(placed.transform);
    for (let k = 0; k < 3; k++) expect(axis[k]).toBeCloseTo(n[k]!, 9);
    // The perimeter-derived diameter measured on the mesh is the generator's target within 3 % (its mesh tolerance).
    const target = patient.cardiac.aorticAnnulusPerimeter_mm / Math.PI;
    expect(Math.abs(placed.annulusDiameter_mm - target) / target).toBeLessThan(0.03);
  });

  it('refuses a patient whose annulus lies outside the size range, naming the measured size', () => {
    const placed = placeByRule(patient, 'end-diastole', {
      landmark: 'aortic_annulus',
      depth_mm: 0,
      annulusRange_mm: { min: 5, max: 6 },
    });
    expect(placed.ok).toBe(false);
    if (placed.ok) return;
    expect(placed.reason).toMatch(/^The aortic annulus measures \d+\.\d mm, outside the device’s size range 5–6 mm\.$/);
    expect(placed.annulusDiameter_mm).toBeGreaterThan(15);
  });
});
