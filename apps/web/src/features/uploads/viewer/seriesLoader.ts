import { HttpRangeReader, Uint8ArrayWriter, ZipReader, configure, type Entry, type FileEntry } from '@zip.js/zip.js';
import { bytesSource, readDicom, readFrame, stringOf, Tag, type Frame } from '@insilico/dicom';
import { buildVolume, type Volume } from './volume';

configure({ useWebWorkers: false, useCompressionStream: true });

/** A series of the de-identified zip: its folder (`<pseudonym>/<study>/<series>/`) and its files. */
export interface ZipSeries {
  folder: string;
  entries: FileEntry[];
}

export interface LoadedSeries {
  volume: Volume;
  description: string;
  modality: string;
  /** files without a frame that can be shown (compressed pixel data), left out */
  skipped: number;
}

const isFile = (entry: Entry): entry is FileEntry => !entry.directory;

/** Groups the `.dcm` entries of the dataset's zip by folder: one series each. */
export function seriesOf(entries: readonly Entry[]): ZipSeries[] {
  const byFolder = new Map<string, FileEntry[]>();
  for (const entry of entries.filter(isFile)) {
    if (!entry.filename.toLowerCase().endsWith('.dcm')) continue;
    const folder = entry.filename.slice(0, entry.filename.lastIndexOf('/') + 1);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), entry]);
  }
  return [...byFolder]
    .map(([folder, list]) => ({ folder, entries: list }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** Opens the dataset's zip on the server by byte ranges (the central directory first, never the whole zip). */
export async function openDatasetZip(url: string): Promise<{ series: ZipSeries[]; close(): Promise<void> }> {
  const reader = new ZipReader(new HttpRangeReader(url));
  const entries = await reader.getEntries();
  return { series: seriesOf(entries), close: () => reader.close() };
}

/** Reads every file of a series (one request per file) and stacks the frames that can be shown. */
export async function loadSeries(
  series: ZipSeries,
  onProgress: (done: number, total: number) => void,
): Promise<LoadedSeries> {
  const frames: Frame[] = [];
  let description = '';
  let modality = '';
  let skipped = 0;
  let done = 0;
  for (const entry of series.entries) {
    const bytes = await entry.getData(new Uint8ArrayWriter());
    const source = bytesSource(bytes);
    const file = await readDicom(source);
    const frame = await readFrame(file, source);
    if (frame) frames.push(frame);
    else skipped += 1;
    description ||= stringOf(file.dataset, Tag.SeriesDescription);
    modality ||= stringOf(file.dataset, Tag.Modality);
    onProgress(++done, series.entries.length);
  }
  return { volume: buildVolume(frames), description, modality, skipped };
}
