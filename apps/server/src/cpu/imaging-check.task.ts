import { open, type FileHandle } from 'node:fs/promises';
import { auditDeidentified, bytesSource, DicomFormatError, readDicom, stringOf, Tag } from '@insilico/dicom';
import {
  imagingFindingsShown,
  imagingManifestSchema,
  type ImagingFinding,
  type ImagingManifest,
} from '@insilico/contracts';
import { Reader, Writer, ZipReader, configure } from '@zip.js/zip.js';
import { cpuTask, type CpuTaskContext } from './task';

configure({ useWebWorkers: false, useCompressionStream: true });

const MANIFEST_NAME = 'deidentification-manifest.json';
const ADDITIONAL_PREFIX = 'additional-files/';
/** Caps against zip bombs: entries, one entry's and the whole zip's unpacked size, and the packing ratio. */
export const imagingCheckLimits = {
  maxEntries: 50_000,
  maxEntryBytes: 512 * 1024 ** 2,
  maxUnpackedBytes: 4 * 1024 ** 3,
  maxRatio: 200,
  maxManifestBytes: 16 * 1024 ** 2,
};

export type ImagingCheckResult =
  | {
      accepted: true;
      manifest: ImagingManifest;
      counts: { patients: number; studies: number; series: number; files: number };
    }
  | { accepted: false; findings: ImagingFinding[]; manifest: ImagingManifest | null };

/** Reads the stored zip by ranges of its file (zip.js asks for the central directory, then each entry). */
export class FileRangeReader extends Reader<string> {
  constructor(
    private readonly handle: FileHandle,
    bytes: number,
  ) {
    super('');
    this.size = bytes;
  }

  override async readUint8Array(index: number, length: number): Promise<Uint8Array> {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, index);
    return buffer.subarray(0, bytesRead);
  }
}

export class EntryTooLargeError extends Error {}

/** Collects an entry's bytes, stopping past its declared size (a lying entry). */
export class CappedWriter extends Writer<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private written = 0;

  constructor(private readonly cap: number) {
    super();
  }

  override writeUint8Array(array: Uint8Array): Promise<void> {
    this.written += array.length;
    if (this.written > this.cap) return Promise.reject(new EntryTooLargeError('unpacks to more than the zip declares'));
    this.chunks.push(array.slice());
    return Promise.resolve();
  }

  override getData(): Promise<Uint8Array> {
    return Promise.resolve(Buffer.concat(this.chunks));
  }
}

export const unsafe = (path: string): boolean =>
  path.startsWith('/') ||
  path.startsWith('\\') ||
  /^[a-zA-Z]:/.test(path) ||
  path.split(/[\\/]/).some((p) => p === '..');

/**
 * The server's re-check of an uploaded imaging dataset (issue 19 item 6), in a CPU-pool thread: every entry of the
 * zip read once (never the whole zip; caps on entries, sizes and ratio against zip bombs; no path leaving the
 * dataset), every `.dcm` a readable DICOM file that passes the de-identification audit of @insilico/dicom (no
 * identifying attribute of the Basic Profile left, no private attribute, UIDs replaced), only the manifest and
 * `additional-files/…` besides, and the manifest well-formed. Any finding refuses the dataset, naming file and tag.
 */
export async function checkImagingZip(
  input: { path: string; bytes: number },
  context: CpuTaskContext,
): Promise<ImagingCheckResult> {
  const handle = await open(input.path, 'r');
  const findings: ImagingFinding[] = [];
  let findingCount = 0;
  const find = (finding: ImagingFinding): void => {
    findingCount += 1;
    if (findings.length < imagingFindingsShown) findings.push(finding);
  };
  let manifest: ImagingManifest | null = null;
  const patients = new Set<string>();
  const studies = new Set<string>();
  const series = new Set<string>();
  let dicomFiles = 0;
  const reader = new ZipReader(new FileRangeReader(handle, input.bytes));
  try {
    let entries;
    try {
      entries = await reader.getEntries({ filenameValidation: 'tolerant' });
    } catch {
      return {
        accepted: false,
        findings: [{ file: '(the upload)', tag: null, problem: 'is not a readable .zip archive' }],
        manifest: null,
      };
    }
    const files = entries.filter((e) => !e.directory);
    if (files.length > imagingCheckLimits.maxEntries) {
      return {
        accepted: false,
        findings: [
          { file: '(the upload)', tag: null, problem: `holds more than ${imagingCheckLimits.maxEntries} files` },
        ],
        manifest: null,
      };
    }
    const unpacked = files.reduce((n, e) => n + e.uncompressedSize, 0);
    if (unpacked > imagingCheckLimits.maxUnpackedBytes) {
      return {
        accepted: false,
        findings: [{ file: '(the upload)', tag: null, problem: 'unpacks to more than 4 GB' }],
        manifest: null,
      };
    }
    let done = 0;
    for (const entry of files) {
      const path = entry.filename;
      done += 1;
      context.progress(done / files.length);
      if (unsafe(path)) {
        find({ file: path, tag: null, problem: 'has a path that leaves the dataset' });
        continue;
      }
      if (entry.uncompressedSize > imagingCheckLimits.maxEntryBytes) {
        find({ file: path, tag: null, problem: 'is larger than 512 MB' });
        continue;
      }
      if (
        entry.uncompressedSize > 1024 * 1024 &&
        entry.uncompressedSize > entry.compressedSize * imagingCheckLimits.maxRatio
      ) {
        find({ file: path, tag: null, problem: 'is packed like a zip bomb' });
        continue;
      }
      if (path.startsWith(ADDITIONAL_PREFIX)) continue; // kept by the user's choice, not read
      const isManifest = path === MANIFEST_NAME;
      if (!isManifest && !path.toLowerCase().endsWith('.dcm')) {
        find({ file: path, tag: null, problem: 'is not a DICOM file (only DICOM images are accepted)' });
        continue;
      }
      if (isManifest && entry.uncompressedSize > imagingCheckLimits.maxManifestBytes) {
        find({ file: path, tag: null, problem: 'is too large for a manifest' });
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await entry.getData(new CappedWriter(entry.uncompressedSize), { checkSignature: true });
      } catch (error) {
        find({
          file: path,
          tag: null,
          problem: error instanceof EntryTooLargeError ? error.message : 'cannot be unpacked',
        });
        continue;
      }
      if (isManifest) {
        const parsed = imagingManifestSchema.safeParse(parseJson(bytes));
        if (parsed.success) manifest = parsed.data;
        else find({ file: path, tag: null, problem: 'is not a valid de-identification manifest' });
        continue;
      }
      try {
        const file = await readDicom(bytesSource(bytes));
        for (const finding of auditDeidentified(file))
          find({ file: path, tag: finding.tag, problem: `${finding.name} ${finding.problem}` });
        dicomFiles += 1;
        const patient = stringOf(file.dataset, Tag.PatientId);
        patients.add(patient);
        studies.add(`${patient}/${stringOf(file.dataset, Tag.StudyInstanceUid)}`);
        series.add(stringOf(file.dataset, Tag.SeriesInstanceUid));
      } catch (error) {
        find({
          file: path,
          tag: null,
          problem:
            error instanceof DicomFormatError ? `is not a readable DICOM file: ${error.message}` : 'cannot be read',
        });
      }
    }
    if (!manifest && findingCount === 0) find({ file: MANIFEST_NAME, tag: null, problem: 'is missing' });
    if (dicomFiles === 0 && findingCount === 0)
      find({ file: '(the upload)', tag: null, problem: 'holds no DICOM file' });
    if (findingCount > findings.length) {
      findings.push({ file: '…', tag: null, problem: `and ${findingCount - findings.length} more findings` });
    }
    if (findingCount > 0 || !manifest) return { accepted: false, findings, manifest };
    return {
      accepted: true,
      manifest,
      counts: { patients: patients.size, studies: studies.size, series: series.size, files: dicomFiles },
    };
  } finally {
    await reader.close().catch(() => undefined);
    await handle.close();
  }
}

export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

export const imagingCheckTask = cpuTask(import.meta.url, 'checkImagingZip', checkImagingZip);
