import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A copy in the cache, held (never evicted) until `release` (idempotent). */
export interface CachedFile {
  path: string;
  bytes: number;
  release(): Promise<void>;
}

/** The version of a remote object the copy must match. */
export interface ObjectVersion {
  etag: string;
  bytes: number;
}

export interface BlobCacheOptions {
  /** The cache folder: copies under `<region>/<key>`, each with a `<key>.etag` whose mtime is its last use. */
  dir: string;
  /** The size bound: above it the least recently used copies that nobody holds are removed, to 90 % of it. */
  maxBytes: number;
  /**
   * Leftovers older than this are removed by a sweep: a crashed fetch's `.part`, a hold that was never released
   * (default 24 h). Holds of dead processes go at once.
   */
  staleMs?: number;
  /** The clock of last uses (tests). */
  now?: () => number;
}

export interface SweepResult {
  /** Bytes in the cache after the sweep (copies and files being written). */
  bytes: number;
  copies: number;
  evicted: number;
  evictedBytes: number;
  /** Above the bound after the sweep: every other copy is held. */
  overBound: boolean;
}

/** The low-water mark a sweep evicts to, so that not every fetch past the bound sweeps again. */
const lowWater = 0.9;
const lockName = '.sweep.lock';
const pinsName = '.pins';
const trashName = '.trash';
const partPattern = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/**
 * The local copies of remote objects (docs/decisions/blob-cache.md): work in the CPU pool reads files on disk, so
 * the S3 store copies an object here and answers the copy's path. The folder is bounded: a sweep (after a fetch
 * takes the cache past `maxBytes`, and at first use) removes the least recently used copies until 90 % of the
 * bound. A copy someone holds (between `acquire` and `release`, in any process on this machine) or one being
 * written is never removed.
 *
 * Holds are files (`.pins/<hash of region/key>.<pid>.<random>`), so processes sharing the folder see each other's;
 * the hold of a dead process is dropped. A sweep takes `.sweep.lock`, reads the holds, moves the copies it evicts
 * to `.trash/`, reads the holds again and puts back any copy held meanwhile; `acquire` writes its hold and then
 * waits until no sweep holds the lock before it looks at the copy. So a sweep either saw the hold (and kept or put
 * back the copy before letting the reader look) or the reader looks after the sweep and fetches the copy again.
 */
export class BlobCache {
  private readonly staleMs: number;
  private readonly now: () => number;
  /** Bytes in the folder as this process last counted them plus what it fetched since; null: not counted yet. */
  private counted: number | null = null;
  private sweeping: Promise<SweepResult> | null = null;
  /** Fetches in progress in this process, by copy: a second reader of the same object waits for the first. */
  private readonly fetching = new Map<string, Promise<void>>();

  constructor(private readonly options: BlobCacheOptions) {
    this.staleMs = options.staleMs ?? 24 * 3600_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The copy of `region/key` at `version`, fetched by `fetch` (which writes the object to the file it is given)
   * when missing or of another version; held until released. A sweep may follow when the cache is past its bound.
   */
  async acquire(
    region: string,
    key: string,
    version: ObjectVersion,
    fetch: (temporary: string) => Promise<void>,
  ): Promise<CachedFile> {
    const id = `${region}/${key}`;
    const path = join(this.options.dir, region, key);
    const release = await this.hold(id);
    try {
      await this.unlocked();
      if (!(await this.matches(path, version))) {
        let fetched = this.fetching.get(id);
        if (!fetched) {
          fetched = this.fetch(path, version, fetch).finally(() => this.fetching.delete(id));
          this.fetching.set(id, fetched);
        }
        await fetched;
      }
      const touched = new Date(this.now());
      await utimes(`${path}.etag`, touched, touched);
      if (this.counted === null || this.counted > this.options.maxBytes) await this.sweep();
      return { path, bytes: version.bytes, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** Removes the copy of `region/key` (the object was deleted). */
  async remove(region: string, key: string): Promise<void> {
    const path = join(this.options.dir, region, key);
    await rm(path, { force: true });
    await rm(`${path}.etag`, { force: true });
  }

  /** Brings the cache under its bound (one sweep at a time per process). */
  sweep(): Promise<SweepResult> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async matches(path: string, version: ObjectVersion): Promise<boolean> {
    const tag = await readFile(`${path}.etag`, 'utf8').catch(() => null);
    if (tag !== version.etag) return false;
    const info = await stat(path).catch(() => null);
    return info?.isFile() === true && info.size === version.bytes;
  }

  private async fetch(path: string, version: ObjectVersion, fetch: (temporary: string) => Promise<void>) {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.part`;
    try {
      await fetch(temporary);
      const written = await stat(temporary);
      if (written.size !== version.bytes)
        throw new Error(`The copy of ${path} has ${written.size} bytes, the object ${version.bytes}.`);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    await writeFile(`${path}.etag`, version.etag);
    if (this.counted !== null) this.counted += version.bytes;
  }

  /** Writes a hold of the copy; answers its release. */
  private async hold(id: string): Promise<() => Promise<void>> {
    const pins = join(this.options.dir, pinsName);
    await mkdir(pins, { recursive: true });
    const pin = join(pins, `${pinHash(id)}.${process.pid}.${randomUUID()}`);
    await writeFile(pin, id);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await rm(pin, { force: true });
    };
  }

  /** Waits while a sweep (of any process) holds the lock; a dead process's lock is removed. */
  private async unlocked(): Promise<void> {
    const lock = join(this.options.dir, lockName);
    for (;;) {
      const owner = await readFile(lock, 'utf8').catch(() => null);
      if (owner === null) return;
      if (!alive(Number(owner))) {
        await rm(lock, { force: true });
        return;
      }
      await sleep(10);
    }
  }

  private async takeLock(): Promise<() => Promise<void>> {
    const lock = join(this.options.dir, lockName);
    await mkdir(this.options.dir, { recursive: true });
    for (;;) {
      try {
        await writeFile(lock, String(process.pid), { flag: 'wx' });
        return () => rm(lock, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        await this.unlocked();
      }
    }
  }

  /** The copies held now, by hash; holds of dead processes, and stale ones, are removed. */
  private async held(): Promise<Set<string>> {
    const pins = join(this.options.dir, pinsName);
    const held = new Set<string>();
    for (const name of await readdir(pins).catch(() => [] as string[])) {
      const [hash, pid] = name.split('.');
      const info = await stat(join(pins, name)).catch(() => null);
      if (!info) continue;
      if (!alive(Number(pid)) || this.now() - info.mtimeMs > this.staleMs) {
        await rm(join(pins, name), { force: true });
        continue;
      }
      held.add(hash!);
    }
    return held;
  }

  private async sweepOnce(): Promise<SweepResult> {
    const { copies, writingBytes } = await this.survey();
    let bytes = writingBytes + copies.reduce((sum, copy) => sum + copy.bytes, 0);
    const result: SweepResult = { bytes, copies: copies.length, evicted: 0, evictedBytes: 0, overBound: false };
    if (bytes > this.options.maxBytes) {
      const target = this.options.maxBytes * lowWater;
      const release = await this.takeLock();
      try {
        const heldBefore = await this.held();
        // Whatever is in the trash while we hold the lock was left by a sweep that crashed.
        const trash = join(this.options.dir, trashName);
        await rm(trash, { recursive: true, force: true });
        await mkdir(trash, { recursive: true });
        const moved: { copy: Copy; to: string }[] = [];
        // Least recently used first; a copy without its tag (a fetch that crashed before writing it) counts as oldest.
        for (const copy of [...copies].sort((a, b) => a.lastUse - b.lastUse)) {
          if (bytes <= target) break;
          if (heldBefore.has(pinHash(copy.id))) continue;
          const to = join(trash, randomUUID());
          try {
            await rename(copy.path, to);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
            throw error;
          }
          moved.push({ copy, to });
          bytes -= copy.bytes;
        }
        // A reader that wrote its hold after the first look is waiting for the lock: its copy goes back.
        const heldAfter = await this.held();
        for (const { copy, to } of moved) {
          if (heldAfter.has(pinHash(copy.id))) {
            await link(to, copy.path).catch((error: NodeJS.ErrnoException) => {
              if (error.code !== 'EEXIST') throw error;
            });
            await rm(to, { force: true });
            bytes += copy.bytes;
          } else {
            await rm(to, { force: true });
            await rm(`${copy.path}.etag`, { force: true });
            result.evicted += 1;
            result.evictedBytes += copy.bytes;
          }
        }
      } finally {
        await release();
      }
    }
    result.bytes = bytes;
    result.copies -= result.evicted;
    result.overBound = bytes > this.options.maxBytes;
    this.counted = bytes;
    return result;
  }

  /** The copies in the folder with their sizes and last uses; stale leftovers removed on the way. */
  private async survey(): Promise<{ copies: Copy[]; writingBytes: number }> {
    const copies: Copy[] = [];
    let writingBytes = 0;
    const now = this.now();
    const walk = async (folder: string, relative: string): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const path = join(folder, entry.name);
        const id = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory()) {
          if (relative === '' && entry.name.startsWith('.')) continue;
          await walk(path, id);
          continue;
        }
        if (!entry.isFile() || entry.name.endsWith('.etag') || relative === '') continue;
        const info = await stat(path).catch(() => null);
        if (!info) continue;
        if (partPattern.test(entry.name)) {
          if (now - info.mtimeMs > this.staleMs) await rm(path, { force: true });
          else writingBytes += info.size;
          continue;
        }
        const tag = await stat(`${path}.etag`).catch(() => null);
        copies.push({ id, path, bytes: info.size, lastUse: tag?.mtimeMs ?? 0 });
      }
    };
    await walk(this.options.dir, '');
    return { copies, writingBytes };
  }
}

interface Copy {
  /** `region/key`. */
  id: string;
  path: string;
  bytes: number;
  lastUse: number;
}

function pinHash(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 32);
}

/** Whether a process of this machine runs (signal 0 checks without sending). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
