import {
  buildPatientMeshes,
  measurePatientMeshes,
  type MeshMeasurements,
  type MeshPhaseInput,
  type SyntheticPatient,
} from '@insilico/anatomy';
import { planeSection, type Vec3 } from '@insilico/mesh';
import type { PlacementTransform } from './device';
import { ScenarioError } from './errors';
import type { DeliveredPatient } from './patient';
import { deliveredRegion } from './region';

/** The annulus planes a device can be snapped to by rule. */
export type RuleLandmark = 'aortic_annulus' | 'mitral_annulus' | 'tricuspid_annulus' | 'pulmonary_annulus';

/** A trial's placement rule (contracts' `placementRuleSchema`, checked there). */
export interface PlacementRule {
  readonly landmark: RuleLandmark;
  /** Along the plane's normal (downstream for the aortic annulus), mm. */
  readonly depth_mm: number;
  /** Only patients whose perimeter-derived annulus diameter lies in this range (a device's sizing chart), mm. */
  readonly annulusRange_mm: { readonly min: number; readonly max: number } | null;
}

export type RulePlacement =
  | { readonly ok: true; readonly transform: PlacementTransform; readonly annulusDiameter_mm: number }
  | { readonly ok: false; readonly reason: string; readonly annulusDiameter_mm: number | null };

const LABELS: Record<RuleLandmark, string> = {
  aortic_annulus: 'aortic annulus',
  mitral_annulus: 'mitral annulus',
  tricuspid_annulus: 'tricuspid annulus',
  pulmonary_annulus: 'pulmonary annulus',
};

/** Perimeter-derived diameter (perimeter / π) of each annulus as measured on the meshes, mm. */
function annulusDiameter(m: MeshMeasurements, landmark: RuleLandmark): number {
  switch (landmark) {
    case 'aortic_annulus':
      return m.aorticAnnulusPerimeter_mm / Math.PI;
    case 'mitral_annulus':
      return m.mitralAnnulusPerimeter_mm / Math.PI;
    case 'tricuspid_annulus':
      return m.tricuspidAnnulusDiameter_mm;
    case 'pulmonary_annulus':
      return m.pulmonaryAnnulusDiameter_mm;
  }
}

/**
 * The room's "Snap to landmark" as a rule: the device's bounding-box centre (a placement's position) on the
 * landmark, moved `depth_mm` along the plane's normal, and its +Z turned onto the normal by the shortest rotation
 * (three.js `setFromUnitVectors`, which the scene uses: q = (z × n, 1 + z·n), normalised). Scale 1. Refused, with a
 * reason a person can act on, when the patient's anatomy has no such plane or the annulus is outside the size range.
 */
export function placeByRule(patient: SyntheticPatient, phase: MeshPhaseInput, rule: PlacementRule): RulePlacement {
  const meshes = buildPatientMeshes(patient, phase);
  const landmark = meshes.landmarks.find((l) => l.name === rule.landmark);
  const label = LABELS[rule.landmark];
  if (!landmark) return { ok: false, reason: `The patient’s anatomy has no ${label}.`, annulusDiameter_mm: null };
  if (!landmark.normal)
    return { ok: false, reason: `The ${label} of this patient has no plane to align with.`, annulusDiameter_mm: null };
  const diameter = annulusDiameter(measurePatientMeshes(meshes), rule.landmark);
  return sizedPlacement(rule, label, diameter, landmark.position, landmark.normal);
}

/**
 * The same rule on a delivered surface (a shape of an SSM, issue 18; an imaging patient's, issue 19): only the aortic
 * annulus is placed on there (the surface is the aortic root). Its plane is the one the case is built on (`deliveredRegion`): the annulus landmark with the
 * root's axis towards the ascending aorta landmark as the normal (downstream), which moves with the shape as its
 * landmarks do; the annulus is measured as the perimeter-derived diameter of the surface's section across that axis.
 * Refused with the case building's own sentence when the surface or landmarks cannot give the plane.
 */
export function placeDeliveredByRule(patient: DeliveredPatient, rule: PlacementRule): RulePlacement {
  const label = LABELS[rule.landmark];
  if (rule.landmark !== 'aortic_annulus') {
    // An SSM's shape is named by the model and shape, an imaging patient by its id and delivered phase.
    const who = patient.source === 'ssm' ? `The shape ${patient.id} (${patient.phase})` : `Patient ${patient.id}`;
    const what =
      patient.source === 'ssm' ? 'has only the aortic root' : `is placed on its aortic root (${patient.phase})`;
    return { ok: false, reason: `${who} ${what}: it has no ${label} to place a device on.`, annulusDiameter_mm: null };
  }
  let region: ReturnType<typeof deliveredRegion>;
  try {
    region = deliveredRegion(patient);
  } catch (error) {
    if (error instanceof ScenarioError) return { ok: false, reason: error.message, annulusDiameter_mm: null };
    throw error;
  }
  const diameter = planeSection(region.mesh, region.annulus, region.axis).perimeter_mm / Math.PI;
  return sizedPlacement(rule, label, diameter, region.annulus, region.axis);
}

/**
 * The rule's last step on either anatomy: refused when the measured annulus lies outside the rule's size range,
 * else snapped to the plane through `position` along `normal`.
 */
function sizedPlacement(
  rule: PlacementRule,
  label: string,
  diameter: number,
  position: Vec3,
  normal: Vec3,
): RulePlacement {
  const range = rule.annulusRange_mm;
  if (range && (diameter < range.min || diameter > range.max))
    return {
      ok: false,
      reason: `The ${label} measures ${diameter.toFixed(1)} mm, outside the device’s size range ${range.min}–${range.max} mm.`,
      annulusDiameter_mm: diameter,
    };
  return { ok: true, transform: snapTransform(position, normal, rule.depth_mm), annulusDiameter_mm: diameter };
}

/** Centre on `position + depth·normal`, +Z along the unit `normal`. */
export function snapTransform(position: Vec3, normal: Vec3, depth_mm: number): PlacementTransform {
  const length = Math.hypot(...normal);
  const [x, y, z] = [normal[0] / length, normal[1] / length, normal[2] / length];
  const w = 1 + z;
  // Opposite to +Z: a half turn about an axis across it (three.js picks −y for +Z).
  const q: [number, number, number, number] = w < 1e-9 ? [0, -1, 0, 0] : [-y, x, 0, w];
  const n = Math.hypot(...q);
  return {
    position: [position[0] + depth_mm * x, position[1] + depth_mm * y, position[2] + depth_mm * z],
    quaternion: [q[0] / n, q[1] / n, q[2] / n, q[3] / n],
    scale: [1, 1, 1],
  };
}
