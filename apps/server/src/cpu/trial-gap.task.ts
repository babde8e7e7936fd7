import type { MeshPhaseInput } from '@insilico/anatomy';
import { frameColumnsAt, type FrameColumn } from '@insilico/contracts';
import { paravalvularGapArea, ScenarioError, simulatedRegion, type ScenarioPatient } from '@insilico/scenarios';
import { cpuTask } from './task';

export interface GapTaskInput {
  /** A cohort patient (with `phase`), or an SSM instance's shape (its aortic root surface and landmarks). */
  patient: ScenarioPatient;
  /** The cohort patient's phase the run used; null for a shape (it has one). */
  phase: MeshPhaseInput | null;
  /** The device's last stored frame, its particle count and the manifest's columns of the device object. */
  frame: Uint8Array;
  count: number;
  columns: FrameColumn[];
  /** The run's particle spacing, mm. */
  dp_mm: number;
}

/**
 * A solid trial patient's paravalvular gap area (mm²) in a CPU-pool thread: the simulated region of the anatomy the
 * run used (`simulatedRegion`: a cohort patient's aortic root at the phase, tens to hundreds of ms to build, or a
 * shape's aortic root surface with its annulus and axis measured as a simulation on it measures them), cut at the
 * aortic annulus plane, against the device's particles at the end of the run (`paravalvularGapArea`,
 * @insilico/scenarios). A value, or null with the reason.
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
  let region: ReturnType<typeof simulatedRegion>;
  try {
    region = simulatedRegion(input.patient, input.phase);
  } catch (error) {
    // A surface the region cannot be measured on (the run would not have been built on it): said, not thrown.
    if (error instanceof ScenarioError) return { value: null, note: error.message };
    throw error;
  }
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
