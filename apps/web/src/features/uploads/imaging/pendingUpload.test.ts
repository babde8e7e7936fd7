// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  PendingUploads,
  parsePendingUpload,
  type KeyValueStore,
  type PendingUpload,
  type ZipDirectory,
} from './pendingUpload';

class MemoryStore implements KeyValueStore {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

/** An origin-private file system in memory: files written whole through a writable. */
class MemoryDirectory implements ZipDirectory {
  readonly files = new Map<string, Blob>();
  getFileHandle(name: string, options?: { create?: boolean }) {
    if (!this.files.has(name) && !options?.create) return Promise.reject(new Error('NotFoundError'));
    return Promise.resolve({
      getFile: () => Promise.resolve(this.files.get(name) ?? new Blob([])),
      createWritable: () => {
        let written: Blob = new Blob([]);
        return Promise.resolve({
          write: (data: Blob) => {
            written = data;
            return Promise.resolve();
          },
          close: () => {
            this.files.set(name, written);
            return Promise.resolve();
          },
        });
      },
    });
  }
  removeEntry(name: string) {
    this.files.delete(name);
    return Promise.resolve();
  }
}

const pending = (change: Partial<PendingUpload> = {}): PendingUpload => ({
  deviceId: 'dev-1',
  userId: 'user-1',
  name: 'Three CT patients',
  note: '',
  bytes: 5,
  uploadUrl: null,
  sent: 0,
  origin: 'upload-images',
  savedAt: '2026-11-28T03:00:00.000Z',
  ...change,
});

describe('an interrupted imaging upload kept in the browser', () => {
  it('keeps the zip and the upload details, records the path and offset, and gives both back', async () => {
    const store = new MemoryStore();
    const directory = new MemoryDirectory();
    const uploads = new PendingUploads(store, () => Promise.resolve(directory));
    expect(await uploads.save(pending(), new Blob(['12345']))).toBe(true);
    uploads.update('user-1', 'dev-1', { uploadUrl: '/api/devices/dev-1/uploads/u-1' });
    uploads.update('user-1', 'dev-1', { sent: 3 });
    const found = await uploads.load('user-1', 'dev-1');
    expect(found?.pending).toMatchObject({
      uploadUrl: '/api/devices/dev-1/uploads/u-1',
      sent: 3,
      name: 'Three CT patients',
    });
    expect(await found?.zip.text()).toBe('12345');
    // Another user or workspace has nothing to resume.
    expect(await uploads.load('user-2', 'dev-1')).toBeNull();
    expect(await uploads.load('user-1', 'dev-2')).toBeNull();
    await uploads.clear('user-1', 'dev-1');
    expect(await uploads.load('user-1', 'dev-1')).toBeNull();
    expect(directory.files.size).toBe(0);
    expect(store.items.size).toBe(0);
  });

  it('forgets details whose zip is gone or has another size (site data cleared), and keeps nothing without storage', async () => {
    const store = new MemoryStore();
    const directory = new MemoryDirectory();
    const uploads = new PendingUploads(store, () => Promise.resolve(directory));
    await uploads.save(pending({ bytes: 5 }), new Blob(['12345']));
    directory.files.clear();
    expect(await uploads.load('user-1', 'dev-1')).toBeNull();
    expect(store.items.size).toBe(0);
    await uploads.save(pending({ bytes: 9 }), new Blob(['12345']));
    expect(await uploads.load('user-1', 'dev-1')).toBeNull();

    const noFiles = new PendingUploads(store, () => Promise.resolve(null));
    expect(await noFiles.save(pending(), new Blob(['12345']))).toBe(false);
    expect(await new PendingUploads(null, () => Promise.resolve(directory)).save(pending(), new Blob(['1']))).toBe(
      false,
    );
  });

  it('reads only well-formed details that point at the API', () => {
    expect(parsePendingUpload(pending())).not.toBeNull();
    expect(parsePendingUpload({ ...pending(), uploadUrl: 'https://elsewhere.example/u' })).toBeNull();
    expect(parsePendingUpload({ ...pending(), bytes: -1 })).toBeNull();
    expect(parsePendingUpload({ ...pending(), origin: 'other' })).toBeNull();
    expect(parsePendingUpload('text')).toBeNull();
  });

  it('takes as the upload only the path of an upload of its own workspace', () => {
    const withUrl = (uploadUrl: string) => parsePendingUpload(pending({ uploadUrl }));
    expect(withUrl('/api/devices/dev-1/uploads/u-1')).not.toBeNull();
    expect(withUrl('/api/devices/dev-2/uploads/u-1')).toBeNull();
    expect(withUrl('/api/devices/dev-1/imaging-datasets/u-1')).toBeNull();
    expect(withUrl('/api/devices/dev-1/uploads/u-1/direct')).toBeNull();
    expect(withUrl('/api/devices/dev-1/uploads/../../u-1')).toBeNull();
    expect(withUrl('/api/devices/dev-1/uploads/')).toBeNull();
    expect(parsePendingUpload(pending({ deviceId: '', uploadUrl: '/api/devices//uploads/u-1' }))).toBeNull();
  });
});
