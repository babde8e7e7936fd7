import {
  IMPLEMENTATION_VERSION_NAME,
  Pseudonymiser,
  Tag,
  bytesSource,
  deidentify,
  readDicom,
  stringOf,
  writeDicom,
  maskedSource,
  type ByteSource,
  type FileSummary,
  type MaskRegion,
  type TagAction,
} from '@insilico/dicom';
import type { DatasetInput } from './inputs';
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

/** Files up to this size are read in one piece (one read instead of a header window and the pixel data apart). */
const WHOLE_FILE_BYTES = 64 << 20;

/** One DICOM file de-identified, written and compressed, with its new identifiers and what was done to it. */
export interface DeidentifiedFile {
  entry: CompressedEntry;
  patient: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  actions: TagAction[];
}

/**
 * The work of one file: read, de-identified by the profile, written (pixel data copied from the source's bytes,
 * masked where regions are given) and deflated under a name made from the new identifiers only.
 */
export async function deidentifyFile(
  source: ByteSource,
  pseudonymiser: Pseudonymiser,
  modifiedDates: boolean,
  regions: readonly MaskRegion[],
): Promise<DeidentifiedFile> {
  const { file: clean, actions } = await deidentify(await readDicom(source), { pseudonymiser, modifiedDates });
  // The clean file's pixel data still refers to the original's bytes: masked as they are copied.
  const pixels = regions.length > 0 ? maskedSource(clean, source, regions) : source;
  const patient = stringOf(clean.dataset, Tag.PatientId);
  const studyInstanceUid = stringOf(clean.dataset, Tag.StudyInstanceUid);
  const seriesInstanceUid = stringOf(clean.dataset, Tag.SeriesInstanceUid);
  const sop = stringOf(clean.dataset, Tag.SopInstanceUid);
  const entry = await compressEntry(
    `${patient}/${studyInstanceUid}/${seriesInstanceUid}/${sop}.dcm`,
    writeDicom(clean, pixels),
  );
  return { entry, patient, studyInstanceUid, seriesInstanceUid, actions };
}

/** A file's bytes: small files read whole, larger ones left to be read by ranges. */
async function openForDeidentification(file: DatasetInput['files'][number]): Promise<ByteSource> {
  const source = await file.open();
  return source.size <= WHOLE_FILE_BYTES ? bytesSource(await source.read(0, source.size)) : source;
}

/**
 * De-identifies the chosen files one at a time and zips them as they are produced (entries named from the new
 * identifiers only: the original paths may hold names) with the manifest; the secret for UIDs, pseudonyms and
 * date shifts is made here and dropped with the function's scope. Returns the zip as a Blob (which the browser
 * can keep on disk) and the manifest.
 */
export async function deidentifyToZip(
  input: DatasetInput,
  summaries: ReadonlyMap<string, FileSummary>,
  selection: DeidentifySelection,
  onProgress: (progress: DeidentifyProgress) => void = () => undefined,
): Promise<{ zip: Blob; manifest: DeidentificationManifest }> {
  const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
  const excluded = new Set(selection.excludedSeries);
  const kept = new Set(selection.keptAdditionalFiles);
  const chosen = input.files.filter((f) => {
    const summary = summaries.get(f.path);
    return summary ? !excluded.has(summary.seriesInstanceUid) : kept.has(f.path);
  });
  const archive = new ZipArchive();
  const series = new Map<string, ManifestSeries>();
  const additionalFiles: string[] = [];
  let bytes = 0;
  let done = 0;
  for (const file of chosen) {
    const summary = summaries.get(file.path);
    if (!summary) {
      const name = `additional-files/${additionalFiles.length + 1}-${file.path.split(/[\\/]/).pop() ?? 'file'}`;
      additionalFiles.push(name);
      archive.add(await compressEntry(name, chunksOf(await file.open())));
    } else {
      const regions = selection.maskedRegions?.[summary.seriesInstanceUid] ?? [];
      const result = await deidentifyFile(
        await openForDeidentification(file),
        pseudonymiser,
        selection.modifiedDates,
        regions,
      );
      archive.add(result.entry);
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
    bytes += file.size;
    done += 1;
    onProgress({ done, total: chosen.length, bytes });
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

async function* chunksOf(source: ByteSource): AsyncGenerator<Uint8Array> {
  const chunk = 4 << 20;
  for (let at = 0; at < source.size; at += chunk) yield await source.read(at, Math.min(chunk, source.size - at));
}
