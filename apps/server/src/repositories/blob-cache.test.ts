import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobCache, type CachedFile } from './blob-cache';

let dir = '';
let clock = 0;
let fetches: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'blob-cache-'));
  // Last uses on a clock of our own, one second per use: the order is never left to the file system's clock.
  clock = Date.now() - 3600_000;
  fetches = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function cache(maxBytes: number, staleMs?: number): BlobCache {
  return new BlobCache({ dir, maxBytes, now: () => (clock += 1000), ...(staleMs !== undefined ? { staleMs } : {}) });
}

/** A remote object of `bytes` bytes of `fill`, version `etag`. */
function acquire(store: BlobCache, key: string, bytes: number, etag = 'v1', fill = 'x'): Promise<CachedFile> {
  return store.acquire('eu', key, { etag, bytes }, async (temporary) => {
    fetches.push(key);
    await writeFile(temporary, fill.repeat(bytes));
  });
}

const present = (key: string) => existsSync(join(dir, 'eu', key));

/** A hold written as another process would write it. */
function holdOf(key: string, pid: number): string {
  const hash = createHash('sha256').update(`eu/${key}`).digest('hex').slice(0, 32);
  mkdirSync(join(dir, '.pins'), { recursive: true });
  const pin = join(dir, '.pins', `${hash}.${pid}.00000000-0000-4000-8000-000000000000`);
  writeFileSync(pin, `eu/${key}`);
  return pin;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

describe('BlobCache', () => {
  it('fetches a copy once, reuses it while the version holds, and fetches again for a new version', async () => {
    const store = cache(1000);
    const first = await acquire(store, 'a/one.bin', 10);
    expect(readFileSync(first.path, 'utf8')).toBe('x'.repeat(10));
    await first.release();
    await (await acquire(store, 'a/one.bin', 10)).release();
    expect(fetches).toEqual(['a/one.bin']);
    const second = await acquire(store, 'a/one.bin', 12, 'v2', 'y');
    expect(readFileSync(second.path, 'utf8')).toBe('y'.repeat(12));
    expect(fetches).toEqual(['a/one.bin', 'a/one.bin']);
    await second.release();
    await second.release();
    expect(readdirSync(join(dir, '.pins'))).toEqual([]);
  });

  it('fetches once for readers asking at the same time, and keeps nothing of a fetch of the wrong size', async () => {
    const store = cache(1000);
    const both = await Promise.all([acquire(store, 'same', 5), acquire(store, 'same', 5)]);
    expect(fetches).toEqual(['same']);
    await Promise.all(both.map((file) => file.release()));
    const wrong = store.acquire('eu', 'short', { etag: 'v1', bytes: 9 }, (temporary) => writeFile(temporary, 'abc'));
    await expect(wrong).rejects.toThrow(/3 bytes, the object 9/);
    expect(present('short')).toBe(false);
    expect(readdirSync(join(dir, 'eu')).filter((name) => name.endsWith('.part'))).toEqual([]);
    expect(readdirSync(join(dir, '.pins'))).toEqual([]);
  });

  it('removes the least recently used copies past the bound, to 90 % of it', async () => {
    const store = cache(100);
    for (const key of ['a', 'b', 'c']) await (await acquire(store, key, 30)).release();
    // a is used again: b is now the least recently used.
    await (await acquire(store, 'a', 30)).release();
    await (await acquire(store, 'd', 30)).release();
    expect(['a', 'b', 'c', 'd'].filter(present)).toEqual(['a', 'c', 'd']);
    expect(existsSync(join(dir, 'eu', 'b.etag'))).toBe(false);
    // 90 bytes: at the low-water mark, so the next fetch of 30 sweeps again and takes the oldest, c.
    await (await acquire(store, 'e', 30)).release();
    expect(['a', 'c', 'd', 'e'].filter(present)).toEqual(['a', 'd', 'e']);
    expect(await store.sweep()).toEqual({ bytes: 90, copies: 3, evicted: 0, evictedBytes: 0, overBound: false });
  });

  it('never removes a held copy: the cache stays over its bound until the holds are released', async () => {
    const store = cache(100);
    const a = await acquire(store, 'a', 40);
    const b = await acquire(store, 'b', 40);
    const c = await acquire(store, 'c', 40);
    expect(['a', 'b', 'c'].filter(present)).toEqual(['a', 'b', 'c']);
    expect(await store.sweep()).toMatchObject({ bytes: 120, evicted: 0, overBound: true });
    await a.release();
    await c.release();
    // a is the least recently used of the released ones; b, older, is still held.
    expect(await store.sweep()).toEqual({ bytes: 80, copies: 2, evicted: 1, evictedBytes: 40, overBound: false });
    expect(['a', 'b', 'c'].filter(present)).toEqual(['b', 'c']);
    expect(readFileSync(b.path, 'utf8')).toBe('x'.repeat(40));
    await b.release();
  });

  it('respects another live process’s hold, and drops the hold of a dead one', async () => {
    const store = cache(100);
    for (const key of ['a', 'b']) await (await acquire(store, key, 40)).release();
    const live = holdOf('a', process.ppid);
    const dead = holdOf('b', deadPid());
    await (await acquire(store, 'c', 40)).release();
    expect(['a', 'b', 'c'].filter(present)).toEqual(['a', 'c']);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(dead)).toBe(false);
  });

  it('counts a file being written but never removes it; a crashed fetch’s stale part goes', async () => {
    const store = cache(100, 3600_000);
    mkdirSync(join(dir, 'eu'), { recursive: true });
    const writing = join(dir, 'eu', 'w.bin.0b6e3b9a-6c1e-4a57-9c7d-3f1f4c2b8e11.part');
    const crashed = join(dir, 'eu', 'z.bin.5d3c7e1f-2b4a-4c8d-9e6f-1a2b3c4d5e6f.part');
    writeFileSync(writing, 'p'.repeat(50));
    writeFileSync(crashed, 'p'.repeat(50));
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(crashed, old, old);
    expect(await store.sweep()).toEqual({ bytes: 50, copies: 0, evicted: 0, evictedBytes: 0, overBound: false });
    expect(existsSync(writing)).toBe(true);
    expect(existsSync(crashed)).toBe(false);
    // 50 being written + 40 + 40: the first copy goes, the part stays.
    for (const key of ['a', 'b']) await (await acquire(store, key, 40)).release();
    expect(['a', 'b'].filter(present)).toEqual(['b']);
    expect(existsSync(writing)).toBe(true);
  });

  it('makes a reader wait while a live sweep holds the lock, and ignores the lock of a dead process', async () => {
    const store = cache(1000);
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, '.sweep.lock');
    writeFileSync(lock, String(process.ppid));
    let done = false;
    const waiting = acquire(store, 'a', 10).then((file) => {
      done = true;
      return file;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    expect(fetches).toEqual([]);
    rmSync(lock);
    await (await waiting).release();
    expect(fetches).toEqual(['a']);
    writeFileSync(lock, String(deadPid()));
    await (await acquire(store, 'b', 10)).release();
    expect(fetches).toEqual(['a', 'b']);
    expect(existsSync(lock)).toBe(false);
  });

  it('sweeps at first use what an earlier process left past a lowered bound, and removes a copy on delete', async () => {
    const before = cache(1000);
    for (const key of ['a', 'b', 'c']) await (await acquire(before, key, 40)).release();
    const after = cache(50);
    await (await acquire(after, 'c', 40)).release();
    expect(['a', 'b', 'c'].filter(present)).toEqual(['c']);
    await after.remove('eu', 'c');
    expect(present('c')).toBe(false);
    expect(existsSync(join(dir, 'eu', 'c.etag'))).toBe(false);
  });
});
