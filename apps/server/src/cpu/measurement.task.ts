import type { SyntheticPatient } from '@insilico/anatomy';
import {
  measurePatient,
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
