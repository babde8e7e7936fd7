import { writeBinaryStl, writeGlb } from '@insilico/mesh';
import type { PatientMeshes } from './buildPatientMeshes';
import { organMesh } from './measure';
import type { Organ } from './organs';
import { phaseLabel } from './phase';

/** File name of an organ's STL: `<patientId>_<phase>_<organ>.stl`, e.g. `SYN-000001_end-systole_lv_blood_pool.stl`. */
export function organStlFileName(meshes: PatientMeshes, organ: Organ): string {
  return `${meshes.patientId}_${phaseLabel(meshes.phase)}_${organ}.stl`;
}

/**
 * Binary STL of one organ (float32, mm, patient frame LPS). The 80-byte header names the patient, phase, organ and
 * units. Byte-identical for the same patient and phase.
 */
export function organStl(meshes: PatientMeshes, organ: Organ): Uint8Array {
  const header = `${meshes.patientId} ${phaseLabel(meshes.phase)} ${organ} mm LPS ${meshes.modelVersion}`.slice(0, 80);
  return writeBinaryStl(organMesh(meshes, organ), header);
}

/**
 * One GLB (glTF 2.0 binary) of all organs for the browser: one named node per organ, positions in metres (glTF's
 * unit; ×0.001 from mm) with normals, and the landmarks (mm, patient frame) with the phase in `asset.extras`.
 */
export function patientGlb(meshes: PatientMeshes): Uint8Array {
  return writeGlb(
    meshes.organs.map((o) => ({ name: o.organ, mesh: o.mesh })),
    {
      unitScale: 0.001,
      extras: {
        patientId: meshes.patientId,
        modelVersion: meshes.modelVersion,
        phase: phaseLabel(meshes.phase),
        frame: meshes.frame,
        landmarkUnit: 'mm',
        landmarks: meshes.landmarks,
      },
    },
  );
}
