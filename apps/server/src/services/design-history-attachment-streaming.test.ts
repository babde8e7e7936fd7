import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachmentEmptyMessage, attachmentTooBigMessage } from '@insilico/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesystemBlobStore } from '../repositories/blob.repository';
import { attachmentStorageKey, storeStreamed } from './design-history-attachments';
import { ServiceError } from './errors';

const deviceId = '11111111-1111-4111-8111-111111111111';
const chunk = (index: number, bytes = 64 * 1024) => new Uint8Array(bytes).fill(index % 251);
const sha256 = (parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

describe('storeStreamed (attachments streamed into storage)', () => {
  let root: string;
  let store: FilesystemBlobStore;
  const folder = () => join(root, 'eu', 'design-history', deviceId, 'attachments');
  /** Every file under the device's attachments folder, with its size (temporary ones too). */
  const files = (): { name: string; bytes: number }[] => {
    const found: { name: string; bytes: number }[] = [];
    const walk = (path: string) => {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        const full = join(path, entry.name);
        if (entry.isDirectory()) walk(full);
        else found.push({ name: full.slice(folder().length + 1), bytes: statSync(full).size });
      }
    };
    try {
      walk(folder());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return found;
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'attachments-'));
    store = new FilesystemBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes each chunk to storage before the next arrives, then keeps the file under its SHA-256', async () => {
    const parts = Array.from({ length: 8 }, (_, index) => chunk(index));
    const onDiskBefore: number[] = [];
    const source = async function* () {
      for (const [index, part] of parts.entries()) {
        // What storage holds before chunk `index` is handed over: every earlier chunk, already written.
        onDiskBefore.push(files().reduce((sum, file) => sum + file.bytes, 0));
        expect(onDiskBefore[index]).toBe(index * part.length);
        yield part;
      }
    };
    const stored = await storeStreamed(store, 'eu', deviceId, source(), 10 * 1024 * 1024);
    expect(stored).toEqual({
      bytes: 8 * 64 * 1024,
      sha256: sha256(parts),
      storageKey: attachmentStorageKey(deviceId, sha256(parts)),
    });
    expect(onDiskBefore).toEqual(parts.map((_, index) => index * 64 * 1024));
    expect(files()).toEqual([{ name: `sha256/${sha256(parts)}`, bytes: 8 * 64 * 1024 }]);
  });

  it('refuses the chunk that crosses the limit with the spec-style message and leaves nothing stored', async () => {
    const source = async function* () {
      yield chunk(1, 600);
      yield chunk(2, 600);
    };
    const refusal = await storeStreamed(store, 'eu', deviceId, source(), 1000).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({ status: 413, code: 'attachment_too_big', message: attachmentTooBigMessage });
    expect(files()).toEqual([]);
  });

  it('refuses an empty file (400) and leaves nothing stored', async () => {
    const source = async function* (): AsyncIterable<Uint8Array> {};
    const refusal = await storeStreamed(store, 'eu', deviceId, source(), 1000).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, message: attachmentEmptyMessage });
    expect(files()).toEqual([]);
  });

  it('keeps the same bytes once, whoever streams them', async () => {
    const bytes = [chunk(7), chunk(8)];
    const source = async function* () {
      yield* bytes;
    };
    const first = await storeStreamed(store, 'eu', deviceId, source(), 1024 * 1024);
    const second = await storeStreamed(store, 'eu', deviceId, source(), 1024 * 1024);
    expect(second.storageKey).toBe(first.storageKey);
    expect(files()).toEqual([{ name: `sha256/${first.sha256}`, bytes: 2 * 64 * 1024 }]);
  });
});
