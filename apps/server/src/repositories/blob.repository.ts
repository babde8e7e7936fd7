import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/** The data regions a workspace's files may live in (spec: EU or US). */
export type DataRegion = 'eu' | 'us';

/** Where files live: the filesystem by default (`var/blobs/<region>/`), an S3-compatible bucket per region at scale. */
export interface BlobStore {
  /** Writes the bytes under the key, atomically (a reader never sees half a file). */
  put(region: DataRegion, key: string, bytes: Uint8Array): Promise<void>;
  /** The whole file, or null when there is none. */
  get(region: DataRegion, key: string): Promise<Buffer | null>;
  /** A stream of the file and its size, or null when there is none (large files). */
  open(region: DataRegion, key: string): Promise<{ stream: Readable; bytes: number } | null>;
  /**
   * The file on this machine's disk and its size, or null when there is none: for work that reads it in another
   * thread (the CPU pool). A store of remote objects copies it into its bounded cache here and keeps the copy
   * until `release` (call it once the file is open or read: `withLocalFile` does).
   */
  localFile(region: DataRegion, key: string): Promise<LocalFile | null>;
  /** Removes the file; removing a missing file is not an error. */
  delete(region: DataRegion, key: string): Promise<void>;
  /**
   * Gives a stored file another key (replacing a file under it), without passing its bytes through this process
   * (a rename, or a copy inside the bucket). A file written under a key it learns only from its content (its
   * SHA-256) is written under a temporary key first, then moved.
   */
  move(region: DataRegion, from: string, to: string): Promise<void>;
  /**
   * The files whose keys start with `prefix` (a folder, ending in `/`), with their sizes and last changes, in no
   * order; a file being written may be among them under a temporary key (sweeps go by the last change).
   */
  list(region: DataRegion, prefix: string): AsyncIterable<StoredBlob>;
  /**
   * Writes a whole file from a stream (never held whole in memory), atomically; answers its size. More than
   * `maxBytes` throws `BlobLimitError` and leaves no file.
   */
  putFrom(region: DataRegion, key: string, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number>;
  /**
   * Writes a stream into the file from `offset` on (resumable uploads): the file is created when missing and cut
   * to `offset` first, so bytes a crashed writer left beyond the recorded offset never count. The bytes are synced
   * before it answers. When the source fails (a client drops the connection) what arrived is kept and `ended` is
   * false. `maxBytes` is the room left in the file: more throws `BlobLimitError` and cuts the file back to
   * `offset`; filling it exactly completes the file (a store of objects assembles it then).
   */
  writeFrom(
    region: DataRegion,
    key: string,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<{ written: number; ended: boolean }>;
  /** Browser uploads straight into storage (object storage), or null when the bytes must pass through the server. */
  readonly direct: DirectUploads | null;
}

/** A file as `list` answers it. */
export interface StoredBlob {
  key: string;
  bytes: number;
  modifiedAt: Date;
}

/** A file on this machine's disk, held for its reader until released (idempotent). */
export interface LocalFile {
  path: string;
  bytes: number;
  release(): Promise<void>;
}

/** A file on disk as work in the CPU pool is given it (no function to clone). */
export type LocalPath = { path: string; bytes: number };

/**
 * `work` given a way to get files on disk (path and size, or null when there is none); every file it got stays
 * held (never evicted from a store's local cache) until the work is over, then released.
 */
export async function holdingLocalFiles<T>(
  store: BlobStore,
  work: (localFile: (region: DataRegion, key: string) => Promise<LocalPath | null>) => Promise<T>,
): Promise<T> {
  const held: LocalFile[] = [];
  try {
    return await work(async (region, key) => {
      const file = await store.localFile(region, key);
      if (!file) return null;
      held.push(file);
      return { path: file.path, bytes: file.bytes };
    });
  } finally {
    await Promise.all(held.map((file) => file.release()));
  }
}

/** `use` given one file on disk (or null), held until it is over (`holdingLocalFiles`). */
export function withLocalFile<T>(
  store: BlobStore,
  region: DataRegion,
  key: string,
  use: (file: LocalPath | null) => Promise<T>,
): Promise<T> {
  return holdingLocalFiles(store, async (localFile) => use(await localFile(region, key)));
}

/** A part of a direct (multipart) upload as the browser reported it after storage took it. */
export interface StoredPart {
  partNumber: number;
  bytes: number;
  etag: string;
}

/**
 * Direct uploads by presigned multipart part addresses (docs/decisions/object-storage.md): the server starts the
 * multipart upload of a key, signs one address per part for the browser, and completes (or aborts) it from the
 * parts the browser reported (storage refuses a part whose ETag it did not issue); the joined object's size is
 * answered so the caller can check it.
 */
export interface DirectUploads {
  /** How long a part address works. */
  readonly presignSeconds: number;
  /** Starts a multipart upload of the key; answers its id. */
  start(region: DataRegion, key: string): Promise<string>;
  /** A presigned address the browser PUTs one part's bytes to. */
  partUrl(region: DataRegion, key: string, multipartId: string, partNumber: number): Promise<string>;
  /** Joins the parts into the object; answers the object's size. */
  complete(region: DataRegion, key: string, multipartId: string, parts: readonly StoredPart[]): Promise<number>;
  /** Drops the upload and its parts (best effort: a bucket lifecycle rule clears what is left). */
  abort(region: DataRegion, key: string, multipartId: string): Promise<void>;
}

/** A stream brought more bytes than the writer allowed. */
export class BlobLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`More than ${maxBytes} bytes were sent.`);
    this.name = 'BlobLimitError';
  }
}

/** Keys are relative paths of safe segments: letters, digits, `-`, `_`, `.`, never `..`. */
const keyPattern = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function assertBlobKey(key: string): void {
  if (!keyPattern.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** The embedded default: one folder per region under the data directory. */
export class FilesystemBlobStore implements BlobStore {
  private readonly root: string;
  readonly direct = null;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(region: DataRegion, key: string): string {
    assertBlobKey(key);
    const path = resolve(this.root, region, key);
    if (!path.startsWith(join(this.root, region) + sep)) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
    return path;
  }

  async put(region: DataRegion, key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(region, key);
    await mkdir(dirname(path), { recursive: true });
    // Write beside, flush, then rename: a crash leaves either the old file or the new one.
    const temporary = `${path}.${randomUUID()}.part`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  }

  async get(region: DataRegion, key: string): Promise<Buffer | null> {
    const path = this.path(region, key);
    try {
      const handle = await open(path, 'r');
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async open(region: DataRegion, key: string): Promise<{ stream: Readable; bytes: number } | null> {
    const path = this.path(region, key);
    try {
      const info = await stat(path);
      return { stream: createReadStream(path), bytes: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async localFile(region: DataRegion, key: string): Promise<LocalFile | null> {
    const path = this.path(region, key);
    try {
      const info = await stat(path);
      // The store's own file: nothing to hold.
      return info.isFile() ? { path, bytes: info.size, release: () => Promise.resolve() } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(region: DataRegion, key: string): Promise<void> {
    await rm(this.path(region, key), { force: true });
  }

  async move(region: DataRegion, from: string, to: string): Promise<void> {
    const source = this.path(region, from);
    const target = this.path(region, to);
    await mkdir(dirname(target), { recursive: true });
    await rename(source, target);
  }

  async *list(region: DataRegion, prefix: string): AsyncIterable<StoredBlob> {
    assertBlobKey(prefix.replace(/\/$/, ''));
    const base = join(this.root, region);
    const walk = async function* (folder: string): AsyncIterable<StoredBlob> {
      const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      for (const entry of entries) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) yield* walk(path);
        else if (entry.isFile()) {
          const info = await stat(path).catch(() => null);
          if (info) yield { key: relative(base, path).split(sep).join('/'), bytes: info.size, modifiedAt: info.mtime };
        }
      }
    };
    yield* walk(join(base, prefix));
  }

  async putFrom(region: DataRegion, key: string, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    const path = this.path(region, key);
    await mkdir(dirname(path), { recursive: true });
    // Written beside and renamed, like `put`: a crash or a refusal leaves no half file under the key.
    const temporary = `${path}.${randomUUID()}.part`;
    const handle = await open(temporary, 'w');
    let written = 0;
    try {
      for await (const chunk of source) {
        if (written + chunk.length > maxBytes) throw new BlobLimitError(maxBytes);
        await handle.write(chunk);
        written += chunk.length;
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, path);
    return written;
  }

  async writeFrom(
    region: DataRegion,
    key: string,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<{ written: number; ended: boolean }> {
    const path = this.path(region, key);
    await mkdir(dirname(path), { recursive: true });
    // 'r+' keeps the bytes before `offset`; positioned writes (not append mode) so the offset decides.
    const handle = await open(path, 'r+').catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return open(path, 'w+');
      throw error;
    });
    let written = 0;
    let ended = true;
    // Set while our own write runs: its failure is storage's fault and must not pass for a dropped client.
    let writing = false;
    try {
      await handle.truncate(offset);
      try {
        for await (const chunk of source) {
          if (written + chunk.length > maxBytes) {
            await handle.truncate(offset);
            throw new BlobLimitError(maxBytes);
          }
          writing = true;
          await handle.write(chunk, 0, chunk.length, offset + written);
          writing = false;
          written += chunk.length;
        }
      } catch (error) {
        if (error instanceof BlobLimitError || writing) throw error;
        ended = false;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { written, ended };
  }
}
