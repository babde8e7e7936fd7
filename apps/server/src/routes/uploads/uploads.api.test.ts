import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { directUnavailableMessage, tusVersion, uploadMaxBytes, uploadTooLargeMessage } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { uploads } from '../../db/schema';
import { UploadRepository } from '../../repositories/upload.repository';
import { uploadBusyMessage } from '../../services/upload.service';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, joinedMember, type Person } from '../../../test/fixtures/workspace.fixtures';
import { createUpload, metadataOf, patchThenDrop, patchUpload, tus } from '../../../test/fixtures/upload.fixtures';

let server: TestServer;
let admin: Person;
let deviceId = '';

beforeAll(async () => {
  ({ server, admin, deviceId } = await projectWorld());
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);

async function created(length: number, name = 'part.stl'): Promise<string> {
  const response = await createUpload(admin.browser, deviceId, length, name);
  expect(response.status).toBe(201);
  return response.headers.get('location')!;
}

function head(location: string, browser = admin.browser): Promise<Response> {
  return browser.request(location, { method: 'HEAD', headers: tus });
}

/** The stored bytes of an upload (the embedded blob store of the test server). */
function blobPath(location: string): string {
  return join(server.dataDir, 'blobs', 'eu', 'uploads', deviceId, location.split('/').pop()!);
}

describe('tus core and creation', () => {
  it('answers its capabilities to OPTIONS', async () => {
    const response = await admin.browser.request(`/api/devices/${deviceId}/uploads`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('tus-version')).toBe(tusVersion);
    expect(response.headers.get('tus-resumable')).toBe(tusVersion);
    expect(response.headers.get('tus-extension')).toBe('creation,termination,expiration');
    expect(response.headers.get('tus-max-size')).toBe(String(uploadMaxBytes));
  });

  it('refuses a request without the supported Tus-Resumable version with 412', async () => {
    const response = await admin.browser.request(`/api/devices/${deviceId}/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '0.2.2',
        'upload-length': '10',
        'upload-metadata': metadataOf({ filename: 'a.stl' }),
      },
    });
    expect(response.status).toBe(412);
    expect(response.headers.get('tus-version')).toBe(tusVersion);
  });

  it('creates, reports the offset, takes the bytes in pieces and completes', async () => {
    const data = bytes(1000);
    const location = await created(data.length);
    expect(location).toMatch(new RegExp(`^/api/devices/${deviceId}/uploads/[0-9a-f-]{36}$`));
    let state = await head(location);
    expect(state.status).toBe(200);
    expect(state.headers.get('upload-offset')).toBe('0');
    expect(state.headers.get('upload-length')).toBe('1000');
    expect(state.headers.get('cache-control')).toBe('no-store');
    expect(new Date(state.headers.get('upload-expires')!).getTime()).toBeGreaterThan(Date.now());
    expect(state.headers.get('upload-metadata')).toBe(metadataOf({ filename: 'part.stl' }));

    const first = await patchUpload(admin.browser, location, 0, data.subarray(0, 400));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('400');
    expect(first.headers.get('tus-resumable')).toBe(tusVersion);
    const second = await patchUpload(admin.browser, location, 400, data.subarray(400));
    expect(second.headers.get('upload-offset')).toBe('1000');
    state = await head(location);
    expect(state.headers.get('upload-offset')).toBe('1000');
  });

  it('answers 409 direct_unavailable to a direct upload on the filesystem store (the bytes go by PATCH)', async () => {
    const location = await created(10);
    const response = await admin.browser.request(`${location}/direct`, { method: 'POST' });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({ code: 'direct_unavailable', message: directUnavailableMessage });
  });

  it('answers 409 when the offset does not match, and 415 for another body type', async () => {
    const location = await created(100);
    await patchUpload(admin.browser, location, 0, bytes(10));
    const mismatch = await patchUpload(admin.browser, location, 0, bytes(10));
    expect(mismatch.status).toBe(409);
    expect((await errorOf(mismatch)).code).toBe('offset_mismatch');
    const wrongType = await patchUpload(admin.browser, location, 10, bytes(10), { 'content-type': 'application/json' });
    expect(wrongType.status).toBe(415);
    expect((await head(location)).headers.get('upload-offset')).toBe('10');
  });

  it('refuses a file over 1 GiB at creation with 413 and a message, and bytes beyond the length', async () => {
    const tooBig = await createUpload(admin.browser, deviceId, uploadMaxBytes + 1, 'huge.stl');
    expect(tooBig.status).toBe(413);
    expect((await errorOf(tooBig)).message).toBe(uploadTooLargeMessage);
    const location = await created(10);
    const beyond = await patchUpload(admin.browser, location, 0, bytes(11));
    expect(beyond.status).toBe(413);
    expect((await head(location)).headers.get('upload-offset')).toBe('0');
  });

  it('refuses creation without a length, without a file name, or with a name that is not .stl', async () => {
    const noLength = await admin.browser.request(`/api/devices/${deviceId}/uploads`, {
      method: 'POST',
      headers: { ...tus, 'upload-metadata': metadataOf({ filename: 'a.stl' }) },
    });
    expect(noLength.status).toBe(400);
    const noName = await admin.browser.request(`/api/devices/${deviceId}/uploads`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': '5' },
    });
    expect(noName.status).toBe(400);
    const notStl = await createUpload(admin.browser, deviceId, 5, 'notes.txt');
    expect(notStl.status).toBe(415);
    expect((await errorOf(notStl)).message).toBe('Only .stl files can be added to a device version.');
  });

  it('keeps the bytes of a PATCH whose connection broke, so the client resumes from there', async () => {
    const data = bytes(200_000, 7);
    const location = await created(data.length, 'resume.stl');
    // Announce the whole file, send 120,000 bytes, then drop the connection.
    await patchThenDrop(server.origin, admin.browser, location, 0, data.length, data.subarray(0, 120_000));
    let offset = 0;
    for (let i = 0; i < 50 && offset === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      offset = Number((await head(location)).headers.get('upload-offset'));
    }
    expect(offset).toBe(120_000);
    const rest = await patchUpload(admin.browser, location, offset, data.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(data.length));
  });
});

describe('one writer per upload, whichever server process the PATCH reaches', () => {
  it('answers 409 while another process holds the write lease, and goes on once it is released or ran out', async () => {
    const location = await created(8);
    const uploadId = location.split('/').pop()!;
    // Another server process in the middle of a PATCH: its lease is in the database, not in this process.
    const other = new UploadRepository(server.context.db.orm);
    expect(await other.takeWriteLease(uploadId, randomUUID(), 60_000)).toBe(true);
    const busy = await patchUpload(admin.browser, location, 0, bytes(4));
    expect(busy.status).toBe(409);
    expect(await busy.text()).toContain(uploadBusyMessage);
    expect((await admin.browser.request(location, { method: 'DELETE', headers: tus })).status).toBe(409);
    expect(await other.takeWriteLease(uploadId, randomUUID(), 60_000)).toBe(false);
    // The other process died: its lease runs out and the upload continues from the recorded offset.
    await server.context.db.orm
      .update(uploads)
      .set({ writerUntil: new Date(Date.now() - 1000) })
      .where(eq(uploads.id, uploadId));
    expect((await patchUpload(admin.browser, location, 0, bytes(4))).status).toBe(204);
    // A finished PATCH gives its lease back.
    const token = randomUUID();
    expect(await other.takeWriteLease(uploadId, token, 60_000)).toBe(true);
    await other.releaseWriteLease(uploadId, token);
    expect((await patchUpload(admin.browser, location, 4, bytes(4, 2))).status).toBe(204);
    expect((await head(location)).headers.get('upload-offset')).toBe('8');
  });
});

describe('termination and expiration', () => {
  it('removes an upload and its bytes on DELETE', async () => {
    const location = await created(10);
    await patchUpload(admin.browser, location, 0, bytes(5));
    expect(existsSync(blobPath(location))).toBe(true);
    const deleted = await admin.browser.request(location, { method: 'DELETE', headers: tus });
    expect(deleted.status).toBe(204);
    expect((await head(location)).status).toBe(404);
    expect(existsSync(blobPath(location))).toBe(false);
  });

  it('answers 410 for an expired upload and the sweep removes expired ones', async () => {
    const expired = await created(10);
    const swept = await created(10);
    await patchUpload(admin.browser, swept, 0, bytes(3));
    const past = new Date(Date.now() - 1000).toISOString();
    for (const location of [expired, swept])
      await server.context.db.executeSql('update uploads set expires_at = $1 where id = $2', [
        past,
        location.split('/').pop(),
      ]);
    expect((await head(expired)).status).toBe(410);
    expect((await head(expired)).status).toBe(404);
    expect(await server.context.uploads.expire()).toBeGreaterThanOrEqual(1);
    expect((await head(swept)).status).toBe(404);
    expect(existsSync(blobPath(swept))).toBe(false);
  });
});

describe('whose upload', () => {
  it('answers 404 to anyone but the uploader, and 403 to a guest who tries to upload', async () => {
    const location = await created(10);
    const member = await joinedMember(server, admin, deviceId, 'member');
    expect((await head(location, member.browser)).status).toBe(404);
    expect((await patchUpload(member.browser, location, 0, bytes(10))).status).toBe(404);
    const guest = await joinedMember(server, admin, deviceId, 'guest');
    expect((await createUpload(guest.browser, deviceId, 10, 'a.stl')).status).toBe(403);
    expect((await createUpload(member.browser, deviceId, 10, 'a.stl')).status).toBe(201);
  });
});
