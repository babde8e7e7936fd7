import {
  IMPLEMENTATION_VERSION_NAME,
  Pseudonymiser,
  bytesSource,
  type ByteSource,
  type FileSummary,
  type MaskRegion,
  type TagAction,
} from '@insilico/dicom';
import { deidentifyFile, type DeidentifiedFile } from './deidentifyFile';
import { DeidentifyPool, deidentifyWorkerCount, type WorkerLike } from './deidentifyPool';
import type { DatasetInput, InputFile } from './inputs';
import { ZipArchive, compressEntry, type CompressedEntry } from './zipArchive';

/** What the user chose on the anonymize step. */
export interface DeidentifySelection {
  /** original Series Instance UIDs the user leaves out (burned-in text, or not wanted) */
  excludedSeries: readonly string[];
  /** paths of additional (non-DICOM) files the user keeps */
  keptAdditionalFiles: readonly string[];
  /** Retain Longitudinal Temporal Information with Modified Dates (PS3.15 E.3.6) */
  modifiedDates: boolean;
  /** per original Series Instance UID, the regions of burned-in text to blank in every image (absent: none) */
  maskedRegions?: Readonly<Record<string, readonly MaskRegion[]>>;
}

/** One series of the output as the manifest records it: identifiers are the new ones, no original value. */
export interface ManifestSeries {
  patient: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  modality: string;
  files: number;
  images: number;
  actions: TagAction[];
  /** the burned-in reasons of the series, when the user chose to keep it anyway */
  burnedInKept: string[];
  /** the regions (image pixels) blanked in every image of the series: the Clean Pixel Data Option, as the user drew it */
  maskedRegions: MaskRegion[];
}

/** The de-identification manifest, stored beside the files in the zip and with the dataset on the server. */
export interface DeidentificationManifest {
  tool: string;
  profile: string;
  options: string[];
  createdAt: string;
  series: ManifestSeries[];
  excludedSeries: number;
  additionalFiles: string[];
}

export const MANIFEST_NAME = 'deidentification-manifest.json';

export interface DeidentifyProgress {
  done: number;
  total: number;
  bytes: number;
}

/** Files up to this size are read in one piece (one read, and the bytes can move to a worker whole). */
const WHOLE_FILE_BYTES = 64 << 20;
/** Read files waiting for or in a worker, at most: memory stays bounded whatever the workers' pace. */
const MAX_IN_FLIGHT_BYTES = 256 << 20;

export interface DeidentifyWorkers {
  /** starts one de-identification worker (the app's module worker; the bench's script) */
  start(): WorkerLike;
  /** how many (default: the machine's cores, at most four) */
  count?: number;
}

/** A file's bytes read whole, or null when it is too large to hold at once (then read by ranges). */
async function readWhole(file: InputFile): Promise<{ bytes: Uint8Array } | { source: ByteSource }> {
  const source = await file.open();
  return source.size <= WHOLE_FILE_BYTES ? { bytes: await source.read(0, source.size) } : { source };
}

interface Pending {
  summary: FileSummary | undefined;
  regions: readonly MaskRegion[];
  size: number;
  result: Promise<DeidentifiedFile | CompressedEntry>;
}

/**
 * De-identifies the chosen files and zips them (entries named from the new identifiers only: the original paths may
 * hold names) with the manifest; the secret for UIDs, pseudonyms and date shifts is made here and dropped with the
 * function's scope (and the workers'). With `workers`, files are read here and de-identified and deflated in
 * parallel in those workers, a bounded number of bytes ahead, and appended in the files' order; without, one at a
 * time in this thread. Returns the zip as a Blob (which the browser can keep on disk) and the manifest.
 */
export async function deidentifyToZip(
  input: DatasetInput,
  summaries: ReadonlyMap<string, FileSummary>,
  selection: DeidentifySelection,
  onProgress: (progress: DeidentifyProgress) => void = () => undefined,
  workers?: DeidentifyWorkers,
): Promise<{ zip: Blob; manifest: DeidentificationManifest }> {
  const secret = Pseudonymiser.newSecret();
  const pseudonymiser = new Pseudonymiser(secret);
  const excluded = new Set(selection.excludedSeries);
  const kept = new Set(selection.keptAdditionalFiles);
  const chosen = input.files.filter((f) => {
    const summary = summaries.get(f.path);
    return summary ? !excluded.has(summary.seriesInstanceUid) : kept.has(f.path);
  });
  const workerCount = workers ? (workers.count ?? deidentifyWorkerCount()) : 0;
  const pool = workers ? new DeidentifyPool(() => workers.start(), workerCount, secret) : undefined;
  const archive = new ZipArchive();
  const series = new Map<string, ManifestSeries>();
  const additionalFiles: string[] = [];
  const pending: Pending[] = [];
  let inFlightBytes = 0;
  let bytes = 0;
  let done = 0;

  const appendOldest = async (): Promise<void> => {
    const oldest = pending.shift()!;
    const result = await oldest.result;
    inFlightBytes -= oldest.size;
    if ('entry' in result) {
      archive.add(result.entry);
      recordFile(series, oldest.summary!, oldest.regions, result);
    } else {
      archive.add(result);
    }
    bytes += oldest.size;
    done += 1;
    onProgress({ done, total: chosen.length, bytes });
  };

  try {
    for (const file of chosen) {
      while (pending.length > 0 && (pending.length > 2 * workerCount || inFlightBytes >= MAX_IN_FLIGHT_BYTES)) {
        await appendOldest();
      }
      const summary = summaries.get(file.path);
      const regions = (summary && selection.maskedRegions?.[summary.seriesInstanceUid]) ?? [];
      let result: Promise<DeidentifiedFile | CompressedEntry>;
      if (!summary) {
        const name = `additional-files/${additionalFiles.length + 1}-${file.path.split(/[\\/]/).pop() ?? 'file'}`;
        additionalFiles.push(name);
        result = compressEntry(name, chunksOf(await file.open()));
      } else {
        const read = await readWhole(file);
        if ('bytes' in read && pool) result = pool.run(read.bytes, selection.modifiedDates, regions);
        else {
          const source = 'bytes' in read ? bytesSource(read.bytes) : read.source;
          result = deidentifyFile(source, pseudonymiser, selection.modifiedDates, regions);
        }
      }
      // A failure surfaces when its turn to be appended comes (in order); until then it must not go unhandled.
      result.catch(() => undefined);
      pending.push({ summary, regions, size: file.size, result });
      inFlightBytes += file.size;
    }
    while (pending.length > 0) await appendOldest();
  } finally {
    pool?.close();
  }
  const manifest: DeidentificationManifest = {
    tool: `InSilico in-browser de-identification ${IMPLEMENTATION_VERSION_NAME}`,
    profile: 'DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile',
    options: [
      ...(selection.modifiedDates ? ['Retain Longitudinal Temporal Information with Modified Dates'] : []),
      ...([...series.values()].some((s) => s.maskedRegions.length > 0)
        ? ['Clean Pixel Data (regions chosen by the user, listed per series)']
        : []),
    ],
    createdAt: new Date().toISOString(),
    series: [...series.values()],
    excludedSeries: excluded.size,
    additionalFiles,
  };
  archive.add(await compressEntry(MANIFEST_NAME, [new TextEncoder().encode(JSON.stringify(manifest, null, 2))]));
  return { zip: archive.close(), manifest };
}

/** Counts a de-identified file into its series of the manifest (created at the series' first file). */
function recordFile(
  series: Map<string, ManifestSeries>,
  summary: FileSummary,
  regions: readonly MaskRegion[],
  result: DeidentifiedFile,
): void {
  const key = `${result.patient}/${result.studyInstanceUid}/${result.seriesInstanceUid}`;
  let entry = series.get(key);
  if (!entry) {
    entry = {
      patient: result.patient,
      studyInstanceUid: result.studyInstanceUid,
      seriesInstanceUid: result.seriesInstanceUid,
      modality: summary.modality,
      files: 0,
      images: 0,
      actions: [],
      burnedInKept: [],
      maskedRegions: regions.map((r) => ({ ...r })),
    };
    series.set(key, entry);
  }
  entry.files += 1;
  entry.images += summary.frames;
  for (const reason of summary.burnedIn) if (!entry.burnedInKept.includes(reason)) entry.burnedInKept.push(reason);
  for (const action of result.actions) {
    const same = entry.actions.find((a) => a.tag === action.tag && a.action === action.action);
    if (same) same.count += action.count;
    else entry.actions.push({ ...action });
  }
}

async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  const chunk = 4 << 20;
  for (let at = 0; at < source.size; at += chunk) yield await source.read(at, Math.min(chunk, source.size - at));
}
