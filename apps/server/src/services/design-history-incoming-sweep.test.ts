import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesystemBlobStore } from '../repositories/blob.repository';
import { incomingGraceMs, sweepIncomingAttachments } from './design-history-attachments';

const deviceId = '11111111-1111-4111-8111-111111111111';
const otherDevice = '22222222-2222-4222-8222-222222222222';
const hour = 60 * 60 * 1000;

describe('sweepIncomingAttachments (upload temporaries a crash left)', () => {
  let root: string;
  let store: FilesystemBlobStore;
  const now = new Date('2026-11-28T12:00:00Z');

  /** A file in the store as a writer left it, last changed `ageMs` before `now`. */
  const leave = (region: string, key: string, bytes: number, ageMs: number) => {
    const path = join(root, region, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.alloc(bytes, 7));
    const at = new Date(now.getTime() - ageMs);
    utimesSync(path, at, at);
  };
  const exists = async (region: 'eu' | 'us', key: string) => (await store.get(region, key)) !== null;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'incoming-sweep-'));
    store = new FilesystemBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes only temporaries unchanged for longer than the grace period, in every region and workspace', async () => {
    expect(incomingGraceMs).toBe(6 * hour);
    const oldIncoming = `design-history/${deviceId}/attachments/incoming/aaaa`;
    const oldPart = `design-history/${deviceId}/attachments/incoming/bbbb.cccc.part`;
    const oldOtherRegion = `design-history/${otherDevice}/attachments/incoming/dddd`;
    const freshIncoming = `design-history/${deviceId}/attachments/incoming/eeee`;
    const stored = `design-history/${deviceId}/attachments/sha256/${'f'.repeat(64)}`;
    const exported = `design-history/${deviceId}/exports/old.zip`;
    leave('eu', oldIncoming, 100, 30 * hour);
    leave('eu', oldPart, 20, 7 * hour);
    leave('us', oldOtherRegion, 5, 48 * hour);
    leave('eu', freshIncoming, 50, 1 * hour);
    leave('eu', stored, 1000, 300 * hour);
    leave('eu', exported, 10, 300 * hour);

    expect(await sweepIncomingAttachments(store, now)).toEqual({ removed: 3, bytes: 125 });
    expect(await exists('eu', oldIncoming)).toBe(false);
    expect(await exists('eu', oldPart)).toBe(false);
    expect(await exists('us', oldOtherRegion)).toBe(false);
    // An upload still arriving, an attached file and anything else of the design history stay.
    expect(await exists('eu', freshIncoming)).toBe(true);
    expect(await exists('eu', stored)).toBe(true);
    expect(await exists('eu', exported)).toBe(true);

    // Idempotent: a second run finds nothing.
    expect(await sweepIncomingAttachments(store, now)).toEqual({ removed: 0, bytes: 0 });
  });

  it('does nothing on an empty store', async () => {
    expect(await sweepIncomingAttachments(store, now)).toEqual({ removed: 0, bytes: 0 });
  });
});
