import { open } from 'node:fs/promises';
import { readStl, writeGlb, type TriangleMesh } from '@insilico/mesh';
import { ZipReader } from '@zip.js/zip.js';
import { CappedWriter, FileRangeReader } from './imaging-check.task';
import { cpuTask, wholeBuffer } from './task';
import { deliveredOrganName, type DeliveredLandmark } from '../services/imaging-anatomy';

/** Where a dataset's delivered models lie on this machine, and which patient and phase to read. */
export interface DeliveredSurfacesInput {
  path: string;
  bytes: number;
  patient: string;
  phase: string;
  /** Only these organs (anatomy spelling); all when absent. */
  organs?: readonly string[];
}

/**
 * The closed surfaces support staff delivered for one patient and phase (`<patient>/<organ>_<phase>.stl` of the
 * models zip, already checked at delivery), by organ name as the anatomy names organs (`aortic-root` →
 * `aortic_root`), in the zip's order. Only the entries of that patient and phase are unpacked.
 */
export async function readDeliveredSurfaces(
  input: DeliveredSurfacesInput,
): Promise<{ organ: string; mesh: TriangleMesh }[]> {
  const handle = await open(input.path, 'r');
  const reader = new ZipReader(new FileRangeReader(handle, input.bytes));
  try {
    const wanted = new RegExp(`^${input.patient}/([A-Za-z0-9-]+)_([A-Za-z0-9-]+)\\.stl$`, 'i');
    const surfaces: { organ: string; mesh: TriangleMesh }[] = [];
    for (const entry of await reader.getEntries({ filenameValidation: 'tolerant' })) {
      const match = wanted.exec(entry.filename);
      if (entry.directory || !match || match[2]!.toLowerCase() !== input.phase) continue;
      if (input.organs && !input.organs.includes(deliveredOrganName(match[1]!))) continue;
      const bytes = await entry.getData(new CappedWriter(entry.uncompressedSize), { checkSignature: true });
      surfaces.push({ organ: deliveredOrganName(match[1]!), mesh: readStl(bytes) });
    }
    return surfaces;
  } finally {
    await reader.close().catch(() => undefined);
    await handle.close();
  }
}

/**
 * One imaging patient's delivered surfaces of one phase as a GLB like a virtual patient's (one node per organ,
 * metres; the landmarks in mm in `asset.extras`), for the patient page and the room scene.
 */
export async function deliveredGlb(
  input: DeliveredSurfacesInput & { landmarks: readonly DeliveredLandmark[] },
  context: { transfer(...buffers: ArrayBuffer[]): void },
): Promise<Uint8Array> {
  const surfaces = await readDeliveredSurfaces(input);
  const glb = writeGlb(
    surfaces.map((s) => ({ name: s.organ, mesh: s.mesh })),
    {
      unitScale: 0.001,
      extras: {
        patientId: input.patient,
        source: 'imaging',
        phase: input.phase,
        landmarkUnit: 'mm',
        landmarks: input.landmarks,
      },
    },
  );
  context.transfer(...wholeBuffer(glb));
  return glb;
}

/** The delivered surfaces of one patient and phase, as meshes (their buffers moved, not copied, to the caller). */
export async function deliveredSurfaces(
  input: DeliveredSurfacesInput,
  context: { transfer(...buffers: ArrayBuffer[]): void },
): Promise<{ organ: string; mesh: TriangleMesh }[]> {
  const surfaces = await readDeliveredSurfaces(input);
  for (const { mesh } of surfaces) context.transfer(...wholeBuffer(mesh.positions), ...wholeBuffer(mesh.indices));
  return surfaces;
}

export const deliveredSurfacesTask = cpuTask(import.meta.url, 'deliveredSurfaces', deliveredSurfaces);
export const deliveredGlbTask = cpuTask(import.meta.url, 'deliveredGlb', deliveredGlb);
