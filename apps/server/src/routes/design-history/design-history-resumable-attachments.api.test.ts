import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  attachmentHashMismatchMessage,
  attachmentMaxBytes,
  attachmentNameMessage,
  attachmentSignedMessage,
  attachmentUploadPurposeMessage,
  attachmentUploadUnfinishedMessage,
  type DesignHistoryAttachment,
  type DesignHistoryEntry,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentStorageKey } from '../../services/design-history-attachments';
import { uploadNotFoundMessage } from '../../services/upload.service';
import type { TestServer } from '../../../test/helpers/test-server';
import { designHistoryWorld } from '../../../test/fixtures/design-history.fixtures';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { createUpload, metadataOf, patchThenDrop, patchUpload, tus } from '../../../test/fixtures/upload.fixtures';

/**
 * Attachments above the one-request limit (issue 20 item 4; docs/decisions/design-history-attachments.md): the file
 * goes as a resumable upload (tus, purpose design_history_attachment) in pieces — small ones here, so that the test
 * stays fast — survives a connection dropped in the middle of a piece, and is then attached: the server reads the
 * stored bytes as a stream for their size and SHA-256, takes the upload over and moves the bytes to their content
 * address.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let outsideMember: Person;
let deviceId = '';
let projectId = '';
let entryId = '';

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const base = () => `/api/devices/${deviceId}/design-history`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Bytes that differ with the seed (so two files never share a hash). */
const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);
const piece = 32 * 1024;

/** A resumable upload of an attachment, created (nothing sent yet); answers its location. */
async function created(person: Person, length: number, name: string, purpose = 'design_history_attachment') {
  const response = await createUpload(person.browser, deviceId, length, name, {
    'upload-metadata': metadataOf({ filename: name, filetype: 'application/pdf', purpose }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.headers.get('location')!;
}

/** Sends `bytes` from `offset` in pieces of `piece` bytes. */
async function send(person: Person, location: string, bytes: Uint8Array, offset = 0): Promise<void> {
  for (let at = offset; at < bytes.length; at += piece) {
    const part = bytes.subarray(at, Math.min(bytes.length, at + piece));
    const patched = await patchUpload(person.browser, location, at, part);
    expect(patched.status, await patched.clone().text()).toBe(204);
  }
}

const idOf = (location: string) => location.split('/').pop()!;

function attachUpload(person: Person, entry: string, body: { uploadId: string; sha256?: string }) {
  return person.browser.postJson(`${base()}/entries/${entry}/attachments/uploaded`, body);
}

async function offsetOf(person: Person, location: string): Promise<number> {
  const state = await person.browser.request(location, { method: 'HEAD', headers: tus });
  return Number(state.headers.get('upload-offset'));
}

beforeAll(async () => {
  const world = await designHistoryWorld('Resumable valve');
  ({ server, admin, deviceId, projectId } = world);
  ({ member, outsideMember } = world.people);
  const response = await member.browser.postJson(`${base()}/entries`, {
    projectId,
    kind: 'verification',
    title: 'Durability bench recording',
  });
  expect(response.status).toBe(201);
  entryId = (await json<DesignHistoryEntry>(response)).id;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('a file sent as a resumable upload', () => {
  const file = bytesOf(300_000, 3);

  it('resumes after a dropped connection, is checked by size and SHA-256, and is attached with one event', async () => {
    const location = await created(member, file.length, 'Durability recording.pdf');
    const uploadId = idOf(location);
    // The first pieces arrive, then a connection drops in the middle of the next one.
    await send(member, location, file.subarray(0, 3 * piece));
    await patchThenDrop(
      server.origin,
      member.browser,
      location,
      3 * piece,
      piece,
      file.subarray(3 * piece, 3 * piece + 10_000),
    );
    // The server keeps what arrived (the writer's lease ends with the request); the client asks and goes on.
    let offset = 0;
    for (let i = 0; i < 100 && offset !== 3 * piece + 10_000; i++) {
      await new Promise((r) => setTimeout(r, 100));
      offset = await offsetOf(member, location);
    }
    expect(offset).toBe(3 * piece + 10_000);
    const unfinished = await attachUpload(member, entryId, { uploadId });
    expect(unfinished.status).toBe(409);
    expect((await errorOf(unfinished)).message).toBe(attachmentUploadUnfinishedMessage);
    for (let i = 0; i < 100; i++) {
      const patched = await patchUpload(member.browser, location, offset, file.subarray(offset, offset + piece));
      if (patched.status === 204) break;
      // The dropped request's write lease may not be released yet: wait and try again.
      expect(patched.status).toBe(409);
      await new Promise((r) => setTimeout(r, 100));
    }
    await send(member, location, file, offset + piece);
    expect(await offsetOf(member, location)).toBe(file.length);

    // A hash that is not the stored bytes' is refused and leaves the upload to attach.
    const wrong = await attachUpload(member, entryId, { uploadId, sha256: sha256(bytesOf(10, 9)) });
    expect(wrong.status).toBe(422);
    expect((await errorOf(wrong)).message).toBe(attachmentHashMismatchMessage);

    const last = await lastEventId();
    const response = await attachUpload(member, entryId, { uploadId, sha256: sha256(file) });
    expect(response.status, await response.clone().text()).toBe(201);
    const attachment = await json<DesignHistoryAttachment>(response);
    expect(attachment).toMatchObject({
      fileName: 'Durability recording.pdf',
      contentType: 'application/pdf',
      bytes: file.length,
      sha256: sha256(file),
      download: `${base()}/entries/${entryId}/attachments/${attachment.id}`,
    });
    const { rows } = await sql(`select action, actor_id, object_id, after from domain_events where id > $1`, [last]);
    expect(rows).toEqual([
      {
        action: 'design_history.attachment_added',
        actor_id: member.id,
        object_id: attachment.id,
        after: {
          entryId,
          fileName: 'Durability recording.pdf',
          contentType: 'application/pdf',
          bytes: file.length,
          sha256: sha256(file),
        },
      },
    ]);
    // Taken over: the bytes moved to their content address, the upload is gone and cannot be attached twice.
    const stored = await server.context.blobs.get('eu', attachmentStorageKey(deviceId, sha256(file)));
    expect(stored && sha256(stored)).toBe(sha256(file));
    expect(existsSync(join(server.dataDir, 'blobs', 'eu', 'uploads', deviceId, uploadId))).toBe(false);
    expect((await sql(`select count(*)::int as n from uploads where id = $1`, [uploadId])).rows[0]!.n).toBe(0);
    const again = await attachUpload(member, entryId, { uploadId });
    expect(again.status).toBe(404);
    expect((await errorOf(again)).message).toBe(uploadNotFoundMessage);
    const download = await admin.browser.get(attachment.download);
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(file));
  }, 120_000);

  it('may be larger than a one-request attachment: the uploads’ limit applies when it is created', async () => {
    const location = await created(member, attachmentMaxBytes * 2, 'CAD export.pdf');
    expect((await member.browser.request(location, { method: 'DELETE', headers: tus })).status).toBe(204);
  });

  it('is refused at creation when its name could not be an attachment’s', async () => {
    const response = await createUpload(member.browser, deviceId, 10, 'x', {
      'upload-metadata': metadataOf({ filename: 'reports\\final.pdf', purpose: 'design_history_attachment' }),
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(attachmentNameMessage);
  });
});

describe('refusals', () => {
  it('someone else’s upload answers like a missing one; an upload made for something else 415', async () => {
    const bytes = bytesOf(5000, 11);
    const theirs = await created(admin, bytes.length, 'theirs.pdf');
    await send(admin, theirs, bytes);
    const response = await attachUpload(member, entryId, { uploadId: idOf(theirs) });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe(uploadNotFoundMessage);

    const model = await created(member, bytes.length, 'leaflet.stl', 'device_version_model');
    await send(member, model, bytes);
    const other = await attachUpload(member, entryId, { uploadId: idOf(model) });
    expect(other.status).toBe(415);
    expect((await errorOf(other)).message).toBe(attachmentUploadPurposeMessage);
  });

  it('a member off the project’s team may not attach (403), and nothing is taken over', async () => {
    const bytes = bytesOf(5000, 13);
    const location = await created(outsideMember, bytes.length, 'outside.pdf');
    await send(outsideMember, location, bytes);
    const last = await lastEventId();
    expect((await attachUpload(outsideMember, entryId, { uploadId: idOf(location) })).status).toBe(403);
    expect(await offsetOf(outsideMember, location)).toBe(bytes.length);
    expect(await lastEventId()).toBe(last);
  });

  it('a signed entry takes no file (409)', async () => {
    const created201 = await admin.browser.postJson(`${base()}/entries`, {
      projectId,
      kind: 'verification',
      title: 'Signed report',
    });
    const signedEntry = (await json<DesignHistoryEntry>(created201)).id;
    const signing = await admin.browser.postJson(`${base()}/signatures`, {
      record: { type: 'entry', id: signedEntry },
      meaning: 'approval',
      email: admin.account.email,
      password: admin.account.password,
    });
    expect(signing.status).toBe(201);
    const bytes = bytesOf(5000, 17);
    const location = await created(admin, bytes.length, 'late.pdf');
    await send(admin, location, bytes);
    const response = await attachUpload(admin, signedEntry, { uploadId: idOf(location) });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toBe(attachmentSignedMessage);
  });
});

/** The id of the trail's last event (the rows after it are the ones a call added). */
async function lastEventId(): Promise<number> {
  const { rows } = await sql(`select coalesce(max(id), 0) as id from domain_events`);
  return Number(rows[0]!.id);
}
