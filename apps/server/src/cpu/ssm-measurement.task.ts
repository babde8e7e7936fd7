import type { SsmModelCard, SsmPhase } from '@insilico/contracts';
import { PatientMeasurer, type MeasurementDefinition, type MeasurementOutcome } from '@insilico/measure';
import { decodeShapeModel } from '@insilico/ssm';
import { modelShape } from './ssm-shape';
import type { SsmLandmark } from './ssm.task';
import { cpuTask, type CpuTaskContext } from './task';

/** Shapes of one model to measure: the model file, its organs' ranges, its mean's landmarks, its phase. */
export interface SsmShapeMeasurementInput {
  model: Uint8Array;
  parts: SsmModelCard['parts'];
  landmarks: SsmLandmark[];
  phase: SsmPhase;
  /** Each shape as standard deviations per mode (`[]`: the mean). */
  shapes: number[][];
  definitions: MeasurementDefinition[];
}

/** Why a measurement at another phase than the model's is not taken on its shapes. */
export function otherPhaseFailure(modelPhase: SsmPhase, phase: string): string {
  return `This shape model is built at ${modelPhase}; the measurement is taken at ${phase}.`;
}

/**
 * Measures definitions on shapes of a statistical shape model (the CPU pool's task): each shape drawn from the
 * model, the mean's landmarks carried onto it with their normals (they follow the deformed shape), then measured
 * as a patient's meshes are (@insilico/measure). A definition at another phase than the model's is not measured:
 * its outcome says so. Answers the outcomes per shape, in the order of the definitions; progress after each shape.
 */
export function measureSsmShapes(input: SsmShapeMeasurementInput, context: CpuTaskContext): MeasurementOutcome[][] {
  const file = decodeShapeModel(input.model);
  return input.shapes.map((deviations, s) => {
    const shape = modelShape(file, input.parts, input.landmarks, deviations);
    const measurer = new PatientMeasurer(shape);
    const outcomes = input.definitions.map((definition): MeasurementOutcome =>
      definition.phase === input.phase
        ? measurer.measure(definition)
        : { failure: otherPhaseFailure(input.phase, definition.phase) },
    );
    context.progress((s + 1) / input.shapes.length);
    return outcomes;
  });
}

export const ssmShapeMeasurementTask = cpuTask(import.meta.url, 'measureSsmShapes', measureSsmShapes);
