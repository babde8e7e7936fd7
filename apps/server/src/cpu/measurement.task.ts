import {
  buildPatientMeshes,
  type Landmark,
  type LandmarkName,
  type Organ,
  type OrganMesh,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import {
  anchorSurfacePoint,
  measurePatient,
  threePointPlane,
  type SurfaceAnchor,
  type LandmarkCorrections,
  type MeasurementDefinition,
  type MeasurementOutcome,
  type MeasurementPhase,
} from '@insilico/measure';
import { cpuTask, type CpuTaskContext } from './task';

/** A batch of patients to measure with the same definitions; corrections by patient id and phase. */
export interface MeasurementBatch {
  patients: SyntheticPatient[];
  definitions: MeasurementDefinition[];
  corrections?: Record<string, Partial<Record<MeasurementPhase, LandmarkCorrections>>>;
}

/**
 * Measures every patient of a batch (meshes built per phase, tens of ms a patient): the CPU pool's task. Reports
 * progress after each patient; answers the outcomes per patient in batch order.
 */
export function measurePatients(input: MeasurementBatch, context: CpuTaskContext): MeasurementOutcome[][] {
  return input.patients.map((patient, i) => {
    const { outcomes } = measurePatient(patient, input.definitions, input.corrections?.[patient.id] ?? {});
    context.progress((i + 1) / input.patients.length);
    return [...outcomes];
  });
}

export const measurementTask = cpuTask(import.meta.url, 'measurePatients', measurePatients);

/** A point of a plane through three points: a landmark, typed coordinates, or the n-th picked point (0-based). */
export type PlanePoint = { landmark: LandmarkName } | { position: Vec3 } | { picked: number };

/** The anatomy points are picked on: a patient's at a phase (meshes built here), or organs with landmarks given. */
export type PickAnatomy =
  { patient: SyntheticPatient; phase: MeasurementPhase } | { organs: OrganMesh[]; landmarks: Landmark[] };

/** Points picked on one anatomy, and the planes through three points of the same definition. */
export interface SurfacePick {
  anatomy: PickAnatomy;
  points: { organ: Organ; position: Vec3 }[];
  planes: [PlanePoint, PlanePoint, PlanePoint][];
}

/** Each picked point anchored; for each plane, its spread (mm) where it is refused, null where it stands. */
export interface SurfacePickCheck {
  anchors: SurfaceAnchor[];
  planes: (number | null)[];
}

/**
 * Anchors picked points on the anatomy (meshes built once): distance from the surface, nearest surface point,
 * frame; then computes each plane through three points there (picked points at their nearest surface point), as an
 * order computes it on that anatomy, and answers the spread of those within MIN_PLANE_SPREAD_MM of one line.
 */
export function checkSurfacePick(input: SurfacePick): SurfacePickCheck {
  const meshes =
    'patient' in input.anatomy ? buildPatientMeshes(input.anatomy.patient, input.anatomy.phase) : input.anatomy;
  const anchors = input.points.map((p) => anchorSurfacePoint(meshes, p.organ, p.position));
  const at = (p: PlanePoint): Vec3 | undefined => {
    if ('position' in p) return p.position;
    if ('landmark' in p) return meshes.landmarks.find((l) => l.name === p.landmark)?.position;
    const anchor = anchors[p.picked];
    return anchor && 'point' in anchor ? anchor.point : undefined;
  };
  const planes = input.planes.map((three) => {
    const [a, b, c] = three.map(at);
    if (!a || !b || !c) return null;
    const through = threePointPlane(a, b, c);
    return 'spread_mm' in through ? through.spread_mm : null;
  });
  return { anchors, planes };
}

export const surfacePickTask = cpuTask(import.meta.url, 'checkSurfacePick', checkSurfacePick);
