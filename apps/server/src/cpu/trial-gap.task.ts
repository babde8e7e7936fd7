import type { MeshPhaseInput, SyntheticPatient } from '@insilico/anatomy';
import { frameColumnsAt, type FrameColumn } from '@insilico/contracts';
import { paravalvularGapArea, simulatedRegion } from '@insilico/scenarios';
import { cpuTask } from './task';

export interface GapTaskInput {
  patient: SyntheticPatient;
  phase: MeshPhaseInput;
  /** The device's last stored frame, its particle count and the manifest's columns of the device object. */
  frame: Uint8Array;
  count: number;
  columns: FrameColumn[];
  /** The run's particle spacing, mm. */
  dp_mm: number;
}

/**
 * A solid trial patient's paravalvular gap area (mm²) in a CPU-pool thread: the patient's aortic root at the phase
 * the run used (tens to hundreds of ms to build), cut at the aortic annulus plane, against the device's particles at
 * the end of the run (`paravalvularGapArea`, @insilico/scenarios). A value, or null with the reason.
 */
export function paravalvularGapInThread(input: GapTaskInput): { value: number | null; note: string } {
  const position = frameColumnsAt(input.columns, input.count).find((c) => c.name === 'position');
  if (position?.type !== 'float32' || position.components !== 3)
    return { value: null, note: 'The run stored no device positions.' };
  const view = new DataView(input.frame.buffer, input.frame.byteOffset, input.frame.byteLength);
  // Component-major: every x, then every y, then every z (mm, the patient's frame).
  const component = (k: number) =>
    Float64Array.from({ length: input.count }, (_, i) =>
      view.getFloat32(position.offset + 4 * (k * input.count + i), true),
    );
  const region = simulatedRegion(input.patient, input.phase);
  const result = paravalvularGapArea({
    lumen: region.mesh,
    point: region.annulus,
    normal: region.axis,
    device: { x: component(0), y: component(1), z: component(2) },
    dp_mm: input.dp_mm,
  });
  return result.ok ? { value: result.gap_mm2, note: '' } : { value: null, note: result.reason };
}

export const trialGapTask = cpuTask(import.meta.url, 'paravalvularGapInThread', paravalvularGapInThread);
