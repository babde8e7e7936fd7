import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listed } from '../../test/helpers/blob-listing';
import { assertBlobKey, BlobLimitError, FilesystemBlobStore } from './blob.repository';

describe('FilesystemBlobStore', () => {
  let root: string;
  let store: FilesystemBlobStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'blobs-'));
    store = new FilesystemBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('keeps files apart by region and reads them back whole or streamed', async () => {
    await store.put('eu', 'pictures/a.png', new TextEncoder().encode('eu bytes'));
    await store.put('us', 'pictures/a.png', new TextEncoder().encode('us bytes'));
    expect((await store.get('eu', 'pictures/a.png'))?.toString()).toBe('eu bytes');
    const opened = await store.open('us', 'pictures/a.png');
    expect(opened?.bytes).toBe(8);
    expect(await text(opened!.stream)).toBe('us bytes');
    expect(readdirSync(join(root, 'eu', 'pictures'))).toEqual(['a.png']);
  });

  it('answers null for a missing file and deletes idempotently', async () => {
    expect(await store.get('eu', 'missing')).toBeNull();
    expect(await store.open('eu', 'missing')).toBeNull();
    await store.put('eu', 'x', new Uint8Array([1]));
    await store.delete('eu', 'x');
    await store.delete('eu', 'x');
    expect(await store.get('eu', 'x')).toBeNull();
  });

  it('lists the files under a folder with sizes and last changes, of its region only', async () => {
    await store.put('eu', 'm/a/1.zip', new Uint8Array(3));
    await store.put('eu', 'm/a/b/2.glb', new Uint8Array(5));
    await store.put('eu', 'other/3', new Uint8Array(1));
    await store.put('us', 'm/4', new Uint8Array(1));
    const { files, sizes } = await listed(store, 'eu', 'm/');
    expect(sizes).toEqual([
      { key: 'm/a/1.zip', bytes: 3 },
      { key: 'm/a/b/2.glb', bytes: 5 },
    ]);
    expect(files.every((file) => file.modifiedAt instanceof Date)).toBe(true);
    expect((await listed(store, 'eu', 'missing/')).files).toEqual([]);
  });

  it('moves a file to another key, replacing what was there, and leaves nothing under the old one', async () => {
    await store.put('eu', 'incoming/1', new TextEncoder().encode('evidence'));
    await store.put('eu', 'kept/sha/x', new TextEncoder().encode('stale'));
    await store.move('eu', 'incoming/1', 'kept/sha/x');
    expect((await store.get('eu', 'kept/sha/x'))?.toString()).toBe('evidence');
    expect(await store.get('eu', 'incoming/1')).toBeNull();
    await store.put('us', 'incoming/2', new TextEncoder().encode('new folder'));
    await store.move('us', 'incoming/2', 'a/b/c');
    expect((await store.get('us', 'a/b/c'))?.toString()).toBe('new folder');
  });

  it('refuses keys that could leave the region folder', () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '', '.', 'a/./b', 'a\\b']) {
      expect(() => assertBlobKey(key), key).toThrow(/Invalid blob key/);
    }
    expect(() => assertBlobKey('cohorts/1f/patient-0001.ed.glb')).not.toThrow();
  });

  describe('writeFrom (resumable uploads)', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    async function* chunks(...parts: string[]) {
      for (const part of parts) yield bytes(part);
    }
    async function* dropsAfter(part: string) {
      yield bytes(part);
      throw new Error('aborted');
    }

    it('appends at the offset and cuts bytes a crashed writer left beyond it', async () => {
      expect(await store.writeFrom('eu', 'u/1', 0, chunks('abc', 'def'), 100)).toEqual({ written: 6, ended: true });
      // Pretend "def" was never recorded: the next write starts at 3 and replaces it.
      expect(await store.writeFrom('eu', 'u/1', 3, chunks('XY'), 100)).toEqual({ written: 2, ended: true });
      expect((await store.get('eu', 'u/1'))?.toString()).toBe('abcXY');
    });

    it('keeps what arrived when the source fails', async () => {
      expect(await store.writeFrom('eu', 'u/2', 0, dropsAfter('hello'), 100)).toEqual({ written: 5, ended: false });
      expect((await store.get('eu', 'u/2'))?.toString()).toBe('hello');
    });

    it('refuses more than the limit and cuts back to the offset', async () => {
      await store.writeFrom('eu', 'u/3', 0, chunks('ab'), 100);
      await expect(store.writeFrom('eu', 'u/3', 2, chunks('cd', 'efgh'), 3)).rejects.toBeInstanceOf(BlobLimitError);
      expect((await store.get('eu', 'u/3'))?.toString()).toBe('ab');
    });

    it('putFrom writes a whole file from a stream, and leaves none when the cap is passed', async () => {
      expect(await store.putFrom('eu', 'm/1.zip', chunks('ab', 'cd'), 4)).toBe(4);
      expect((await store.get('eu', 'm/1.zip'))?.toString()).toBe('abcd');
      await expect(store.putFrom('eu', 'm/2.zip', chunks('ab', 'cde'), 4)).rejects.toBeInstanceOf(BlobLimitError);
      expect(await store.get('eu', 'm/2.zip')).toBeNull();
      expect(readdirSync(join(root, 'eu', 'm'))).toEqual(['1.zip']);
    });
  });
});
