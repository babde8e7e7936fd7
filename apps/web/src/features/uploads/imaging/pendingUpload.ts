import { pathOf, uploadEndpoints } from '@insilico/contracts';

/**
 * An upload of a de-identified zip that has not finished, kept so that it can be picked up after the tab was closed
 * (issue 19 item 4): the zip itself in the browser's origin-private file system (it is already de-identified, and
 * the secret that made it is gone), what is needed to continue in local storage. The server keeps the bytes it
 * received (tus); resuming asks it for the offset and sends the rest. One per user and workspace.
 */
export interface PendingUpload {
  deviceId: string;
  userId: string;
  name: string;
  note: string;
  bytes: number;
  /** the tus upload's URL once the server made it (null: nothing was sent yet) */
  uploadUrl: string | null;
  /** the last offset the page saw (shown before resuming; the server's HEAD decides) */
  sent: number;
  /** where it was started: the /upload-images flow or the project creation wizard */
  origin: 'upload-images' | 'wizard';
  savedAt: string;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Whether a URL is the path of an upload of the workspace (what the server's tus creation answered). */
function isUploadOf(url: string, deviceId: string): boolean {
  const uploadId = url.slice(url.lastIndexOf('/') + 1);
  return deviceId !== '' && uploadId !== '' && url === pathOf(uploadEndpoints.send, { deviceId, uploadId });
}

/** What local storage holds, checked (it may be from an older version, or edited). */
export function parsePendingUpload(raw: unknown): PendingUpload | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const ok =
    typeof r.deviceId === 'string' &&
    typeof r.userId === 'string' &&
    typeof r.name === 'string' &&
    typeof r.note === 'string' &&
    isCount(r.bytes) &&
    (r.uploadUrl === null || (typeof r.uploadUrl === 'string' && isUploadOf(r.uploadUrl, r.deviceId))) &&
    isCount(r.sent) &&
    (r.origin === 'upload-images' || r.origin === 'wizard') &&
    typeof r.savedAt === 'string';
  return ok ? (r as unknown as PendingUpload) : null;
}

/** The parts of the origin-private file system used (a directory handle). */
export interface ZipDirectory {
  getFileHandle(
    name: string,
    options?: { create?: boolean },
  ): Promise<{
    getFile(): Promise<Blob>;
    createWritable(): Promise<{ write(data: Blob): Promise<void>; close(): Promise<void> }>;
  }>;
  removeEntry(name: string): Promise<void>;
}

/** The parts of local storage used. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const keyOf = (userId: string, deviceId: string) => `insilico.imaging.pendingUpload.${userId}.${deviceId}`;
const fileOf = (userId: string, deviceId: string) => `pending-imaging-upload-${userId}-${deviceId}.zip`;

export class PendingUploads {
  constructor(
    private readonly store: KeyValueStore | null,
    private readonly directory: () => Promise<ZipDirectory | null>,
  ) {}

  /** The interrupted upload of this user in this workspace and its zip, or null (also when the zip is gone). */
  async load(userId: string, deviceId: string): Promise<{ pending: PendingUpload; zip: Blob } | null> {
    const pending = this.read(userId, deviceId);
    if (!pending) return null;
    const directory = await this.directory();
    try {
      const zip = directory ? await (await directory.getFileHandle(fileOf(userId, deviceId))).getFile() : null;
      if (zip?.size === pending.bytes) return { pending, zip };
    } catch {
      // The zip was removed (site data cleared): nothing to resume.
    }
    await this.clear(userId, deviceId);
    return null;
  }

  /** Keeps the zip and the upload's details; false when this browser cannot keep files (resume within the page only). */
  async save(pending: PendingUpload, zip: Blob): Promise<boolean> {
    if (!this.store) return false;
    try {
      const directory = await this.directory();
      if (!directory) return false;
      const handle = await directory.getFileHandle(fileOf(pending.userId, pending.deviceId), { create: true });
      const writable = await handle.createWritable();
      await writable.write(zip);
      await writable.close();
      this.store.setItem(keyOf(pending.userId, pending.deviceId), JSON.stringify(pending));
      return true;
    } catch {
      // Quota or a browser without the file system: the upload still runs, it just cannot outlive the tab.
      return false;
    }
  }

  /** Records the upload's URL or the offset reached (no-op when nothing is kept). */
  update(userId: string, deviceId: string, change: Partial<Pick<PendingUpload, 'uploadUrl' | 'sent'>>): void {
    const pending = this.read(userId, deviceId);
    if (pending) this.store?.setItem(keyOf(userId, deviceId), JSON.stringify({ ...pending, ...change }));
  }

  async clear(userId: string, deviceId: string): Promise<void> {
    this.store?.removeItem(keyOf(userId, deviceId));
    try {
      await (await this.directory())?.removeEntry(fileOf(userId, deviceId));
    } catch {
      // Already gone.
    }
  }

  private read(userId: string, deviceId: string): PendingUpload | null {
    const raw = this.store?.getItem(keyOf(userId, deviceId));
    if (!raw) return null;
    try {
      const parsed = parsePendingUpload(JSON.parse(raw));
      return parsed?.userId === userId && parsed.deviceId === deviceId ? parsed : null;
    } catch {
      return null;
    }
  }
}

/** The browser's: local storage and the origin-private file system where they exist. */
export const pendingUploads = new PendingUploads(
  typeof localStorage === 'undefined' ? null : localStorage,
  async () => {
    if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') return null;
    try {
      return await navigator.storage.getDirectory();
    } catch {
      return null;
    }
  },
);
