import { open } from 'node:fs/promises';
import { analyseTopology, enclosedVolume_mm3, validateStl } from '@insilico/mesh';
import {
  imagingFindingsShown,
  imagingLandmarksFileSchema,
  type ImagingFinding,
  type ImagingModel,
  type ImagingModels,
} from '@insilico/contracts';
import { ZipReader } from '@zip.js/zip.js';
import {
  CappedWriter,
  EntryTooLargeError,
  FileRangeReader,
  imagingCheckLimits,
  parseJson,
  unsafe,
} from './imaging-check.task';
import { cpuTask, type CpuTaskContext } from './task';

/** `<patient>/<organ>_<phase>.stl`: letters, digits and dashes in each part. */
const meshName = /^([A-Za-z0-9-]+)\/([A-Za-z0-9-]+)_([A-Za-z0-9-]+)\.stl$/i;
const landmarksName = /^([A-Za-z0-9-]+)\/landmarks\.json$/;
const maxMeshBytes = 128 * 1024 ** 2;
const maxLandmarksBytes = 1024 ** 2;

export type ImagingModelsResult =
  | { accepted: true; models: Omit<ImagingModels, 'deliveredAt' | 'deliveredBy'> }
  | { accepted: false; findings: ImagingFinding[] };

/**
 * The patient models support staff deliver for an imaging dataset (issue 19 item 7), checked in a CPU-pool thread:
 * a .zip (the same caps as the dataset's re-check: entries, sizes, packing ratio, no path leaving it) with one
 * folder per patient holding closed surfaces `<organ>_<phase>.stl` (readable STL, no holes, no non-manifold
 * edges) and `landmarks.json` (at least one named point). Anything else, or a patient without both, is a finding.
 */
export async function checkImagingModels(
  input: { path: string; bytes: number },
  context: CpuTaskContext,
): Promise<ImagingModelsResult> {
  const handle = await open(input.path, 'r');
  const findings: ImagingFinding[] = [];
  const find = (file: string, problem: string) => {
    if (findings.length < imagingFindingsShown) findings.push({ file, tag: null, problem });
  };
  const patients = new Map<
    string,
    { landmarks: ImagingModels['patients'][number]['landmarks']; models: ImagingModel[] }
  >();
  const patient = (id: string) => {
    let found = patients.get(id);
    if (!found) patients.set(id, (found = { landmarks: [], models: [] }));
    return found;
  };
  const reader = new ZipReader(new FileRangeReader(handle, input.bytes));
  try {
    let entries;
    try {
      entries = (await reader.getEntries({ filenameValidation: 'tolerant' })).filter((e) => !e.directory);
    } catch {
      return {
        accepted: false,
        findings: [{ file: '(the upload)', tag: null, problem: 'is not a readable .zip archive' }],
      };
    }
    if (entries.length > imagingCheckLimits.maxEntries)
      return { accepted: false, findings: [{ file: '(the upload)', tag: null, problem: 'holds too many files' }] };
    let done = 0;
    for (const entry of entries) {
      const path = entry.filename;
      context.progress(++done / entries.length);
      if (unsafe(path)) {
        find(path, 'has a path that leaves the delivery');
        continue;
      }
      const mesh = meshName.exec(path);
      const landmarks = landmarksName.exec(path);
      if (!mesh && !landmarks) {
        find(path, 'is neither <patient>/<organ>_<phase>.stl nor <patient>/landmarks.json');
        continue;
      }
      const cap = mesh ? maxMeshBytes : maxLandmarksBytes;
      if (
        entry.uncompressedSize > cap ||
        (entry.uncompressedSize > 1024 * 1024 &&
          entry.uncompressedSize > entry.compressedSize * imagingCheckLimits.maxRatio)
      ) {
        find(path, 'is too large or packed like a zip bomb');
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await entry.getData(new CappedWriter(entry.uncompressedSize), { checkSignature: true });
      } catch (error) {
        find(path, error instanceof EntryTooLargeError ? error.message : 'cannot be unpacked');
        continue;
      }
      if (landmarks) {
        const parsed = imagingLandmarksFileSchema.safeParse(parseJson(bytes));
        if (parsed.success) patient(landmarks[1]!).landmarks = parsed.data.landmarks;
        else find(path, 'is not {"landmarks": [{"name", "position": [x, y, z]}, …]} with at least one landmark');
        continue;
      }
      const [, id, organ, phase] = mesh!;
      const validation = validateStl(bytes);
      if (!validation.ok) {
        find(path, `is not a readable STL: ${validation.refusal.reason}`);
        continue;
      }
      const topology = analyseTopology(validation.mesh);
      if (!topology.closed) {
        find(
          path,
          `is not a closed surface (${topology.boundaryEdges} open edges, ${topology.nonManifoldEdges} non-manifold edges)`,
        );
        continue;
      }
      patient(id!).models.push({
        patient: id!,
        organ: organ!.toLowerCase(),
        phase: phase!.toLowerCase(),
        triangles: validation.mesh.indices.length / 3,
        volume: Math.abs(enclosedVolume_mm3(validation.mesh)),
      });
    }
    if (patients.size === 0 && findings.length === 0) find('(the upload)', 'holds no patient model');
    for (const [id, delivered] of patients) {
      if (delivered.models.length === 0) find(`${id}/`, 'has no closed surface (<organ>_<phase>.stl)');
      if (delivered.landmarks.length === 0) find(`${id}/landmarks.json`, 'is missing');
    }
    if (findings.length > 0) return { accepted: false, findings };
    return {
      accepted: true,
      models: {
        patients: [...patients].map(([id, delivered]) => ({ patient: id, ...delivered })),
      },
    };
  } finally {
    await reader.close().catch(() => undefined);
    await handle.close();
  }
}

export const imagingModelsTask = cpuTask(import.meta.url, 'checkImagingModels', checkImagingModels);
