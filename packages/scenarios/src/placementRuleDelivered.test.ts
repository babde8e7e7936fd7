import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import { describe, expect, it } from 'vitest';
import { placeByRule, placeDeliveredByRule } from './placementRule';
import type { DeliveredPatient } from './patient';

// A shape of an SSM reaches the rule as a delivered surface (aortic root and landmark points, no normals). Made here
// from a virtual patient, whose own rule (the annulus plane's normal and the mesh measurement) is the reference.
const patient = generatePatient(20261125, 7);
const meshes = buildPatientMeshes(patient, 'end-diastole');
const shape: DeliveredPatient = {
  source: 'ssm',
  id: 'Aortic roots',
  phase: 'mode 1 +2 SD',
  aorticRoot: organMesh(meshes, 'aortic_root'),
  landmarks: (['aortic_annulus', 'ascending_aorta'] as const).map((name) => ({
    name,
    position: landmarkOf(meshes, name).position,
  })),
  strokeVolume_mL: null,
};
const rule = { landmark: 'aortic_annulus', depth_mm: 3, annulusRange_mm: null } as const;

describe('placeDeliveredByRule (the placement rule on an SSM shape)', () => {
  it('places as the virtual patient’s own rule does: the annulus plane, its normal, the depth', () => {
    const reference = placeByRule(patient, 'end-diastole', rule);
    const placed = placeDeliveredByRule(shape, rule);
    if (!reference.ok || !placed.ok) throw new Error('both placements should succeed');
    // The root axis runs along the annulus normal (the loft is straight up to the ascending aorta): 0.05 mm, 1e-3.
    for (let k = 0; k < 3; k++) {
      expect(placed.transform.position[k]).toBeCloseTo(reference.transform.position[k]!, 1);
      expect(placed.transform.quaternion[k]).toBeCloseTo(reference.transform.quaternion[k]!, 3);
    }
    // Perimeter-derived diameter of the same section of the same surface: within 1 %.
    expect(Math.abs(placed.annulusDiameter_mm / reference.annulusDiameter_mm - 1)).toBeLessThan(0.01);
  });

  it('lists the shape with the reason when the rule fails', () => {
    const placed = placeDeliveredByRule(shape, { ...rule, annulusRange_mm: { min: 40, max: 45 } });
    expect(placed.ok).toBe(false);
    if (!placed.ok) expect(placed.reason).toMatch(/^The aortic annulus measures \d+\.\d mm, outside .* 40–45 mm\.$/);
    const mitral = placeDeliveredByRule(shape, { ...rule, landmark: 'mitral_annulus' });
    expect(mitral).toEqual({
      ok: false,
      reason:
        'The shape Aortic roots (mode 1 +2 SD) has only the aortic root: it has no mitral annulus to place a device on.',
      annulusDiameter_mm: null,
    });
    // An imaging patient is named as a patient, not as a shape.
    const imaging = placeDeliveredByRule(
      { ...shape, source: 'imaging', id: 'P07' },
      { ...rule, landmark: 'mitral_annulus' },
    );
    expect(imaging).toEqual({
      ok: false,
      reason: `Patient P07 is placed on its aortic root (${shape.phase}): it has no mitral annulus to place a device on.`,
      annulusDiameter_mm: null,
    });
    const noLandmark = placeDeliveredByRule({ ...shape, landmarks: shape.landmarks.slice(0, 1) }, rule);
    expect(noLandmark.ok).toBe(false);
    if (!noLandmark.ok) expect(noLandmark.reason).toContain('has no ascending aorta landmark');
  });
});
