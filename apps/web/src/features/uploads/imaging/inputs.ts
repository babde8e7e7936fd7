import { BlobReader, Writer, ZipReader, configure, type Entry } from '@zip.js/zip.js';
import { blobSource, bytesSource, type ByteSource } from '@insilico/dicom';
import {
  MAX_COMPRESSION_RATIO,
  MAX_UNPACKED_BYTES,
  MAX_ZIP_BYTES,
  NOT_A_ZIP_MESSAGE,
  UNPACKED_TOO_BIG_MESSAGE,
  zipTooBigMessage,
} from './limits';

// zip.js runs inside our own worker: no workers of its own (the CSP allows none from blob: URLs), and the
// browser's native DecompressionStream for speed.
configure({ useWebWorkers: false, useCompressionStream: true });

/** Collects an entry's bytes and stops as soon as they exceed what the zip declared (a lying entry, a zip bomb). */
class CappedWriter extends Writer<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private written = 0;

  constructor(
    private readonly cap: number,
    private readonly path: string,
  ) {
    super();
  }

  override writeUint8Array(array: Uint8Array): Promise<void> {
    this.written += array.length;
    if (this.written > this.cap)
      return Promise.reject(new InputError(`${this.path}: unpacks to more than the zip declares.`));
    this.chunks.push(array.slice());
    return Promise.resolve();
  }

  override getData(): Promise<Uint8Array> {
    const out = new Uint8Array(this.written);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return Promise.resolve(out);
  }
}

/** One file of the dataset, opened only when it is read (one at a time: the dataset is never held whole). */
export interface InputFile {
  path: string;
  size: number;
  open(): Promise<ByteSource>;
}

/** An entry of the zip that is not read at all, and why. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

export class InputError extends Error {
  override name = 'InputError';
}

export interface DatasetInput {
  files: InputFile[];
  skipped: SkippedEntry[];
  close(): Promise<void>;
}

/** A path inside an upload that could escape its folder or is not a plain relative path. */
export function unsafePath(path: string): boolean {
  return (
    path.startsWith('/') ||
    path.startsWith('\\') ||
    /^[a-zA-Z]:/.test(path) ||
    path.split(/[\\/]/).some((part) => part === '..')
  );
}

/**
 * The entries of a zip, read from its central directory by ranges of the File (never whole). Refuses a zip over
 * 1 GB or one that unpacks to more than 4 GB; skips directories, unsafe paths (path traversal) and entries whose
 * compression ratio is that of a zip bomb. Each entry unpacks on open, checked against its declared size.
 */
export async function zipInput(file: Blob): Promise<DatasetInput> {
  if (file.size > MAX_ZIP_BYTES) throw new InputError(zipTooBigMessage(file.size));
  const reader = new ZipReader(new BlobReader(file));
  let entries: Entry[];
  try {
    // Tolerant names: an unsafe path is skipped with its reason below instead of failing the whole zip.
    entries = await reader.getEntries({ filenameValidation: 'tolerant' });
  } catch {
    await reader.close().catch(() => undefined);
    throw new InputError(NOT_A_ZIP_MESSAGE);
  }
  const files: InputFile[] = [];
  const skipped: SkippedEntry[] = [];
  let unpacked = 0;
  for (const entry of entries) {
    if (entry.directory) continue;
    const path = entry.filename;
    if (unsafePath(path)) {
      skipped.push({ path, reason: 'Unsafe path (it points outside the dataset)' });
      continue;
    }
    if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > entry.compressedSize * MAX_COMPRESSION_RATIO) {
      skipped.push({
        path,
        reason: `Compressed ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} to 1, like a zip bomb`,
      });
      continue;
    }
    unpacked += entry.uncompressedSize;
    if (unpacked > MAX_UNPACKED_BYTES) {
      await reader.close();
      throw new InputError(UNPACKED_TOO_BIG_MESSAGE);
    }
    const declared = entry.uncompressedSize;
    files.push({
      path,
      size: declared,
      open: async () => {
        const bytes = await entry.getData(new CappedWriter(declared, path), { checkSignature: true });
        if (bytes.length !== declared) throw new InputError(`${path}: unpacks to another size than the zip declares.`);
        return bytesSource(bytes);
      },
    });
  }
  return { files, skipped, close: () => reader.close() };
}

/** A folder chosen in the browser (webkitdirectory) or dropped: each file read by ranges of its own. */
export function folderInput(entries: readonly { path: string; file: Blob }[]): DatasetInput {
  const files: InputFile[] = [];
  const skipped: SkippedEntry[] = [];
  for (const { path, file } of entries) {
    if (unsafePath(path)) skipped.push({ path, reason: 'Unsafe path (it points outside the dataset)' });
    else files.push({ path, size: file.size, open: () => Promise.resolve(blobSource(file)) });
  }
  return { files, skipped, close: () => Promise.resolve() };
}
