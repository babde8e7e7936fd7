import {
  DicomFormatError,
  buildTree,
  hasDicomPrefix,
  planDeidentification,
  readDicom,
  readFrame,
  summarise,
  thumbnailOf,
  type FileSummary,
  type PatientNode,
  type TagAction,
} from '@insilico/dicom';
import type { DatasetInput, InputFile } from './inputs';

/** A file that is not DICOM: listed, and left out of the upload unless the user keeps it. */
export interface AdditionalFile {
  path: string;
  size: number;
}

/** A file that looked like DICOM (or was in the zip) but cannot be used, with the reason. */
export interface RefusedFile {
  path: string;
  reason: string;
}

/** A series' picture in the tree: 8-bit grey, at most 64 pixels on its longer side. */
export interface Thumbnail {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A series' first image, larger, with the image's own size: what the user draws the regions to mask on. */
export interface SeriesPreview extends Thumbnail {
  /** the image's size in pixels (the regions' coordinates) */
  rows: number;
  columns: number;
}

export interface ScanResult {
  patients: PatientNode[];
  /** per series id, the picture of its first readable file (absent: compressed or no pixels) */
  thumbnails: Record<string, Thumbnail>;
  additionalFiles: AdditionalFile[];
  refused: RefusedFile[];
  dicomFiles: number;
}

export interface ScanProgress {
  done: number;
  total: number;
}

/** A dataset read once: what the tree, the anonymize step and de-identification need, without the files' bytes. */
export interface ScannedDataset {
  /** per DICOM file path, its summary (tags to anonymize under the basic profile) */
  summaries: Map<string, FileSummary>;
  /** per DICOM file path, the tags to anonymize with the Modified Dates option */
  modifiedDatesPlans: Map<string, TagAction[]>;
  thumbnails: Map<string, Thumbnail>;
  additionalFiles: AdditionalFile[];
  refused: RefusedFile[];
}

/**
 * Reads every file of the dataset once, one at a time: DICOM Part 10 files are summarised (the tree, the burned-in
 * reasons, the tags to anonymize with and without the dates option, so that switching it needs no second read),
 * anything else is an additional file, damaged DICOM is refused with its reason.
 */
export async function scanDataset(
  input: DatasetInput,
  onProgress: (progress: ScanProgress) => void = () => undefined,
): Promise<ScannedDataset> {
  const scanned: ScannedDataset = {
    summaries: new Map(),
    modifiedDatesPlans: new Map(),
    thumbnails: new Map(),
    additionalFiles: [],
    refused: input.skipped.map((s) => ({ path: s.path, reason: s.reason })),
  };
  let done = 0;
  for (const file of input.files) {
    const outcome = await scanFile(file, (series) => !scanned.thumbnails.has(series));
    if (outcome.kind === 'dicom') {
      scanned.summaries.set(file.path, outcome.summary);
      scanned.modifiedDatesPlans.set(file.path, outcome.modifiedDatesPlan);
      if (outcome.thumbnail) scanned.thumbnails.set(outcome.summary.seriesInstanceUid, outcome.thumbnail);
    } else if (outcome.kind === 'other') {
      scanned.additionalFiles.push({ path: file.path, size: file.size });
    } else {
      scanned.refused.push({ path: file.path, reason: outcome.reason });
    }
    done += 1;
    onProgress({ done, total: input.files.length });
  }
  return scanned;
}

/** The tree and lists shown to the user, with the tags to anonymize for the chosen dates option. */
export function scanResult(scanned: ScannedDataset, modifiedDates: boolean): ScanResult {
  const summaries = [...scanned.summaries.values()].map((summary) =>
    modifiedDates ? { ...summary, tagsToAnonymize: scanned.modifiedDatesPlans.get(summary.path) ?? [] } : summary,
  );
  return {
    patients: buildTree(summaries),
    thumbnails: Object.fromEntries(scanned.thumbnails),
    additionalFiles: scanned.additionalFiles,
    refused: scanned.refused,
    dicomFiles: scanned.summaries.size,
  };
}

type Outcome =
  | { kind: 'dicom'; summary: FileSummary; modifiedDatesPlan: TagAction[]; thumbnail: Thumbnail | null }
  | { kind: 'other' }
  | { kind: 'refused'; reason: string };

/** One file read; `wantsThumbnail(seriesUid)` says whether its series still needs a picture. */
async function scanFile(file: InputFile, wantsThumbnail: (series: string) => boolean): Promise<Outcome> {
  try {
    const source = await file.open();
    if (source.size < 132 || !hasDicomPrefix(await source.read(0, 132))) return { kind: 'other' };
    const dicom = await readDicom(source);
    const summary = summarise(file.path, dicom, { modifiedDates: false });
    let thumbnail: Thumbnail | null = null;
    if (wantsThumbnail(summary.seriesInstanceUid)) {
      const frame = await readFrame(dicom, source).catch(() => null);
      thumbnail = frame ? thumbnailOf(frame) : null;
    }
    return {
      kind: 'dicom',
      summary,
      modifiedDatesPlan: planDeidentification(dicom.dataset, { modifiedDates: true }),
      thumbnail,
    };
  } catch (error) {
    if (error instanceof DicomFormatError) return { kind: 'refused', reason: error.message };
    return { kind: 'refused', reason: error instanceof Error ? error.message : 'The file could not be read.' };
  }
}

/** The first image of a series, at most `size` pixels on its longer side; null when it cannot be shown. */
export async function seriesPreview(
  input: DatasetInput,
  scanned: ScannedDataset,
  seriesId: string,
  size = 384,
): Promise<SeriesPreview | null> {
  const summary = [...scanned.summaries.values()].find((s) => s.seriesInstanceUid === seriesId);
  const file = summary && input.files.find((f) => f.path === summary.path);
  if (!file) throw new Error('No such series in the dataset.');
  const source = await file.open();
  const frame = await readFrame(await readDicom(source), source);
  return frame ? { ...thumbnailOf(frame, size), rows: frame.rows, columns: frame.columns } : null;
}
