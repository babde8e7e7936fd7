import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { loadConfig } from '../config';
import { listed } from '../../test/helpers/blob-listing';
import { requireS3, tryStartTestS3, type TestS3 } from '../../test/helpers/s3-server';
import { BlobLimitError } from './blob.repository';
import { S3BlobStore } from './s3-blob.repository';

// The S3 store's own contract against s3rver started here from npm (skipped, saying why, if it cannot start).
let s3: TestS3 | string = 'not started';
let store: S3BlobStore;
let cacheDir = '';

beforeAll(async () => {
  s3 = await tryStartTestS3();
  if (typeof s3 === 'string') return;
  const { storage } = loadConfig(s3.env);
  if (storage.driver !== 's3') throw new Error('expected s3 storage');
  cacheDir = mkdtempSync(join(tmpdir(), 'blob-cache-'));
  store = new S3BlobStore({ ...storage, cacheDir });
});
afterAll(async () => {
  if (typeof s3 !== 'string') await s3.stop();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

const needsS3 = (context: TestContext) => requireS3(context, s3);

const bytes = (s: string) => new TextEncoder().encode(s);
async function* chunks(...parts: string[]) {
  for (const part of parts) yield bytes(part);
}
async function* dropsAfter(part: string) {
  yield bytes(part);
  throw new Error('aborted');
}

describe('S3BlobStore', () => {
  it('keeps files apart by region (bucket) and reads them back whole, streamed or as a local copy', async (context) => {
    needsS3(context);
    await store.put('eu', 'pictures/a.png', bytes('eu bytes'));
    await store.put('us', 'pictures/a.png', bytes('us bytes'));
    expect((await store.get('eu', 'pictures/a.png'))?.toString()).toBe('eu bytes');
    const opened = await store.open('us', 'pictures/a.png');
    expect(opened?.bytes).toBe(8);
    expect(await text(opened!.stream)).toBe('us bytes');
    const local = await store.localFile('eu', 'pictures/a.png');
    expect(local?.bytes).toBe(8);
    expect(readFileSync(local!.path, 'utf8')).toBe('eu bytes');
    // Rewritten: the copy follows the object's new ETag.
    await store.put('eu', 'pictures/a.png', bytes('new eu bytes'));
    expect(readFileSync((await store.localFile('eu', 'pictures/a.png'))!.path, 'utf8')).toBe('new eu bytes');
  });

  it('bounds its local copies: the least recently used goes, a held one stays until released', async (context) => {
    needsS3(context);
    const { storage } = loadConfig((s3 as TestS3).env);
    if (storage.driver !== 's3') throw new Error('expected s3 storage');
    const small = new S3BlobStore({ ...storage, cacheMaxBytes: 25, cacheDir: join(cacheDir, 'small') });
    for (const name of ['one', 'two', 'three']) await small.put('eu', `frames/${name}.bin`, bytes(name.padEnd(10)));
    const one = await small.localFile('eu', 'frames/one.bin');
    await (await small.localFile('eu', 'frames/two.bin'))!.release();
    // 30 bytes past the bound of 25: two goes (one is held).
    const three = await small.localFile('eu', 'frames/three.bin');
    expect(existsSync(one!.path)).toBe(true);
    expect(existsSync(join(cacheDir, 'small', 'eu', 'frames', 'two.bin'))).toBe(false);
    expect(readFileSync(one!.path, 'utf8')).toBe('one       ');
    await one!.release();
    await three!.release();
    // Fetched again when asked for; now one, released and the oldest, goes.
    const two = await small.localFile('eu', 'frames/two.bin');
    expect(readFileSync(two!.path, 'utf8')).toBe('two       ');
    await two!.release();
    expect(existsSync(one!.path)).toBe(false);
  });

  it('lists the objects under a prefix, of its region’s bucket only', async (context) => {
    needsS3(context);
    await store.put('us', 'listed/a/1.zip', new Uint8Array(3));
    await store.put('us', 'listed/a/b/2.glb', new Uint8Array(5));
    await store.put('eu', 'listed/3', new Uint8Array(1));
    const { files, sizes } = await listed(store, 'us', 'listed/');
    expect(sizes).toEqual([
      { key: 'listed/a/1.zip', bytes: 3 },
      { key: 'listed/a/b/2.glb', bytes: 5 },
    ]);
    expect(files.every((file) => file.modifiedAt.getTime() > Date.now() - 3600_000)).toBe(true);
  });

  it('answers null for a missing file, deletes idempotently, and refuses unsafe keys', async (context) => {
    needsS3(context);
    expect(await store.get('eu', 'missing')).toBeNull();
    expect(await store.open('eu', 'missing')).toBeNull();
    expect(await store.localFile('eu', 'missing')).toBeNull();
    await store.put('eu', 'x', new Uint8Array([1]));
    await store.delete('eu', 'x');
    await store.delete('eu', 'x');
    expect(await store.get('eu', 'x')).toBeNull();
    await expect(store.put('eu', '../x', new Uint8Array([1]))).rejects.toThrow(/Invalid blob key/);
  });

  it('writeFrom: segments until the room is filled, a crashed writer’s bytes cut, then one object', async (context) => {
    needsS3(context);
    expect(await store.writeFrom('eu', 'u/1', 0, chunks('abc', 'def'), 10)).toEqual({ written: 6, ended: true });
    expect(await store.get('eu', 'u/1')).toBeNull();
    // Pretend "def" was never recorded: the next write starts at 3, replaces it and fills the room.
    expect(await store.writeFrom('eu', 'u/1', 3, chunks('XYZWVUT'), 7)).toEqual({ written: 7, ended: true });
    expect((await store.get('eu', 'u/1'))?.toString()).toBe('abcXYZWVUT');
  });

  it('writeFrom keeps what arrived when the source fails, and refuses more than the room', async (context) => {
    needsS3(context);
    expect(await store.writeFrom('eu', 'u/2', 0, dropsAfter('hello'), 8)).toEqual({ written: 5, ended: false });
    await expect(store.writeFrom('eu', 'u/2', 5, chunks('ab', 'cd'), 3)).rejects.toBeInstanceOf(BlobLimitError);
    expect(await store.writeFrom('eu', 'u/2', 5, chunks('!!!'), 3)).toEqual({ written: 3, ended: true });
    expect((await store.get('eu', 'u/2'))?.toString()).toBe('hello!!!');
  });

  it('putFrom writes a whole file from a stream, and leaves none when the cap is passed', async (context) => {
    needsS3(context);
    expect(await store.putFrom('us', 'm/1.zip', chunks('ab', 'cd'), 4)).toBe(4);
    expect((await store.get('us', 'm/1.zip'))?.toString()).toBe('abcd');
    await expect(store.putFrom('us', 'm/2.zip', chunks('ab', 'cde'), 4)).rejects.toBeInstanceOf(BlobLimitError);
    expect(await store.get('us', 'm/2.zip')).toBeNull();
  });

  it('move copies an object to another key inside its bucket and removes the old key', async (context) => {
    needsS3(context);
    await store.put('eu', 'incoming/1', bytes('evidence'));
    await store.move('eu', 'incoming/1', 'kept/sha256/abc');
    expect((await store.get('eu', 'kept/sha256/abc'))?.toString()).toBe('evidence');
    expect(await store.get('eu', 'incoming/1')).toBeNull();
  });
});
