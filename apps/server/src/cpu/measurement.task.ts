import { buildPatientMeshes, type Organ, type SyntheticPatient } from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import {
  anchorSurfacePoint,
  measurePatient,
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

/** Points picked on one patient's organs at one phase. */
export interface SurfacePick {
  patient: SyntheticPatient;
  phase: MeasurementPhase;
  points: { organ: Organ; position: Vec3 }[];
}

/** Anchors picked points on the patient's meshes of the phase (built once): distance from the surface, frame. */
export function anchorSurfacePoints(input: SurfacePick): SurfaceAnchor[] {
  const meshes = buildPatientMeshes(input.patient, input.phase);
  return input.points.map((p) => anchorSurfacePoint(meshes, p.organ, p.position));
}

export const surfaceAnchorTask = cpuTask(import.meta.url, 'anchorSurfacePoints', anchorSurfacePoints);
