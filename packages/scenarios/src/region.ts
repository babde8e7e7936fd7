import {
  buildPatientMeshes,
  landmarkOf,
  organMesh,
  type MeshPhaseInput,
  type SyntheticPatient,
} from '@insilico/anatomy';
import { planeSection, type TriangleMesh, type Vec3 } from '@insilico/mesh';
import { ScenarioError } from './errors';
import { isDelivered, type DeliveredPatient, type ScenarioPatient } from './patient';

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

/**
 * The simulated region of `patient` at `phase`: a virtual patient's from its meshes and parameters, a patient of the
 * user's own imaging from its delivered surface and landmarks (`deliveredRegion`; `phase` is the surface's own).
 */
export function simulatedRegion(patient: ScenarioPatient, phase: MeshPhaseInput | null): SimulatedRegion {
  if (isDelivered(patient)) return deliveredRegion(patient);
  if (phase === null) throw new Error(`a phase of virtual patient ${patient.id} is needed`);
  return syntheticRegion(patient, phase);
}

function syntheticRegion(patient: SyntheticPatient, phase: MeshPhaseInput): SimulatedRegion {
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

/**
 * The region of a delivered aortic root surface, measured the way a CT reader would: the root's axis from the aortic
 * annulus landmark to the ascending aorta landmark; the LVOT end at the surface's lowest point along that axis; the
 * annulus, LVOT (its landmark, else 5 mm below the annulus), sinotubular junction and ascending aorta diameters as
 * perimeter-derived diameters (perimeter / π) of the surface's sections across the axis. Throws ScenarioError with
 * what is missing in words (a landmark, a section the surface does not reach, no LVOT below the annulus).
 */
export function deliveredRegion(patient: DeliveredPatient): SimulatedRegion {
  const landmark = (name: string) => patient.landmarks.find((l) => l.name === name)?.position ?? null;
  const annulus = landmark('aortic_annulus');
  const ascending = landmark('ascending_aorta');
  const missing = [annulus ? null : 'aortic annulus', ascending ? null : 'ascending aorta'].filter(Boolean);
  if (!annulus || !ascending)
    throw new ScenarioError([
      {
        key: 'anatomy',
        message: `Patient ${patient.id} has no ${missing.join(' or ')} landmark: a simulation places its inlet, outlet and the root's axis from the aortic annulus and the ascending aorta.`,
      },
    ]);
  const toAscending = sub(ascending, annulus);
  const ascending_mm = Math.hypot(...toAscending);
  if (ascending_mm < 1)
    throw new ScenarioError([
      {
        key: 'anatomy',
        message: `Patient ${patient.id}'s aortic annulus and ascending aorta landmarks coincide: the root's axis cannot be drawn between them.`,
      },
    ]);
  const axis = scale(toAscending, 1 / ascending_mm);
  const mesh = patient.aorticRoot;
  if (!mesh)
    throw new ScenarioError([
      {
        key: 'anatomy',
        message: `Patient ${patient.id} has no aortic root surface at ${patient.phase}: simulations need the closed surface of the LVOT, aortic root and ascending aorta (delivered as aortic-root_${patient.phase}.stl).`,
      },
    ]);
  let bottom_mm = Infinity;
  for (let i = 0; i < mesh.positions.length; i += 3)
    bottom_mm = Math.min(
      bottom_mm,
      dot(sub([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!], annulus), axis),
    );
  if (!(bottom_mm < -MIN_DELIVERED_LVOT_MM))
    throw new ScenarioError([
      {
        key: 'anatomy',
        message: `Patient ${patient.id}'s aortic root surface ends less than ${MIN_DELIVERED_LVOT_MM} mm below the aortic annulus: a simulation needs the LVOT below the annulus for its inlet.`,
      },
    ]);
  const diameterAt = (point: Vec3, what: string): number => {
    const section = planeSection(mesh, point, axis);
    if (section.segments === 0)
      throw new ScenarioError([
        {
          key: 'anatomy',
          message: `Patient ${patient.id}'s aortic root surface does not reach the ${what}: the surface and the landmarks do not match.`,
        },
      ]);
    return section.perimeter_mm / Math.PI;
  };
  const onRoot = (height: number) => add(annulus, scale(axis, height));
  const lvot = landmark('lvot') ?? onRoot(Math.max(bottom_mm / 2, -LVOT_SECTION_BELOW_ANNULUS_MM));
  const stj = landmark('sinotubular_junction');
  const lvotDiameter_mm = diameterAt(lvot, 'LVOT');
  const annulusDiameter_mm = diameterAt(annulus, 'aortic annulus');
  const ascendingDiameter_mm = diameterAt(ascending, 'ascending aorta');
  const stjDiameter_mm = stj ? diameterAt(stj, 'sinotubular junction') : 0;
  return {
    mesh,
    annulus,
    axis,
    bottom_mm,
    ascending_mm,
    inletRadius_mm: Math.max(lvotDiameter_mm, annulusDiameter_mm) / 2,
    outletRadius_mm: Math.max(ascendingDiameter_mm, stjDiameter_mm) / 2,
    lvotDiameter_mm,
  };
}

/** A delivered surface must reach at least this far below the annulus (the inlet buffer of a coarse case fits). */
const MIN_DELIVERED_LVOT_MM = 3;
/** Where the LVOT is measured without its landmark: this far below the annulus (or half way to the surface's end). */
const LVOT_SECTION_BELOW_ANNULUS_MM = 5;

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
