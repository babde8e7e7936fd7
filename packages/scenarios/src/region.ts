import {
  buildPatientMeshes,
  landmarkOf,
  organMesh,
  type MeshPhaseInput,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { TriangleMesh, Vec3 } from '@insilico/mesh';

/** A plane of the simulated region: centre (mm, patient frame), unit normal along the flow, section radius (mm). */
export interface RegionPlane {
  readonly centre: Vec3;
  readonly normal: Vec3;
  readonly radius: number;
}

/**
 * The simulated region of a room: the aortic root organ mesh (LVOT, aortic root and ascending aorta as one closed
 * loft, mm, patient frame) with the root axis, the annulus and the diameters that size the inlet and outlet.
 */
export interface SimulatedRegion {
  readonly mesh: TriangleMesh;
  /** The annulus centre and the root axis (downstream). */
  readonly annulus: Vec3;
  readonly axis: Vec3;
  /** Heights along the axis above the annulus, mm: the LVOT end of the mesh and the top of the modelled aorta. */
  readonly bottom_mm: number;
  readonly ascending_mm: number;
  /** The largest lumen radius near the inlet (LVOT and annulus) and at the outlet (ascending aorta), mm. */
  readonly inletRadius_mm: number;
  readonly outletRadius_mm: number;
  readonly lvotDiameter_mm: number;
}

/** Depth of the modelled LVOT below the annulus plane (anatomy's aortic root loft), mm. */
const LVOT_DEPTH_MM = 10;

/** The simulated region of `patient` at `phase`. */
export function simulatedRegion(patient: SyntheticPatient, phase: MeshPhaseInput): SimulatedRegion {
  const meshes = buildPatientMeshes(patient, phase);
  const annulus = landmarkOf(meshes, 'aortic_annulus');
  const ascending = landmarkOf(meshes, 'ascending_aorta');
  const axis = annulus.normal!;
  const c = patient.cardiac;
  const ascending_mm = dot(sub(ascending.position, annulus.position), axis);
  return {
    mesh: organMesh(meshes, 'aortic_root'),
    annulus: annulus.position,
    axis,
    bottom_mm: -LVOT_DEPTH_MM,
    ascending_mm,
    inletRadius_mm: Math.max(c.lvotDiameter_mm, c.aorticAnnulusMajorDiameter_mm) / 2,
    outletRadius_mm: Math.max(c.ascendingAortaDiameter_mm, c.sinotubularJunctionDiameter_mm) / 2,
    lvotDiameter_mm: c.lvotDiameter_mm,
  };
}

/** The point `height` mm along the axis from the annulus. */
export function onAxis(region: SimulatedRegion, height: number): Vec3 {
  return add(region.annulus, scale(region.axis, height));
}

export function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
export function scale(a: Vec3, s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}
export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
