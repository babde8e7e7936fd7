import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertBlobKey, FilesystemBlobStore } from './blob.repository';

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

  it('refuses keys that could leave the region folder', () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '', '.', 'a/./b', 'a\\b']) {
      expect(() => assertBlobKey(key), key).toThrow(/Invalid blob key/);
    }
    expect(() => assertBlobKey('cohorts/1f/patient-0001.ed.glb')).not.toThrow();
  });
});
