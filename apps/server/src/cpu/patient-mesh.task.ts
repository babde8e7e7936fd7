import { buildPatientMeshes, patientGlb, type MeshPhase, type SyntheticPatient } from '@insilico/anatomy';
import { cpuTask, wholeBuffer, type CpuTaskContext } from './task';

/** One patient's organ meshes of one phase as a GLB (tens of ms to build): the CPU pool's task. */
export function patientGlbBytes(
  input: { patient: SyntheticPatient; phase: MeshPhase },
  context: CpuTaskContext,
): Uint8Array {
  const glb = patientGlb(buildPatientMeshes(input.patient, input.phase));
  context.transfer(...wholeBuffer(glb));
  return glb;
}

export const patientGlbTask = cpuTask(import.meta.url, 'patientGlbBytes', patientGlbBytes);
