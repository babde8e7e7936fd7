import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  attachmentMaxBytes,
  attachmentTooBigMessage,
  type DesignHistoryAttachment,
  type DesignHistoryEntry,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentStorageKey } from '../../services/design-history-attachments';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, json, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../../test/factories/project-rows';

/**
 * Attachments larger than the old 20 MB: the upload is streamed into storage and hashed as it arrives (no content
 * length needed, never held whole), kept under its SHA-256, and a declared length over the limit is refused with the
 * spec-style message before a byte is read. See docs/decisions/design-history-attachments.md.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let entryId = '';

const mib = 1024 * 1024;
const streamedBytes = 25 * mib;
const chunkBytes = 256 * 1024;
const base = () => `/api/devices/${deviceId}/design-history`;
const count = async (table: string) =>
  Number((await server.context.db.executeSql(`select count(*)::int as n from ${table}`)).rows[0]!.n);

/** Chunk `index` of the generated file: bytes from its index, so every chunk (and the file) is distinct. */
function chunkOf(index: number): Uint8Array {
  const chunk = new Uint8Array(chunkBytes);
  let state = (index + 1) * 2654435761;
  for (let at = 0; at < chunk.length; at += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    chunk[at] = state >>> 24;
  }
  return chunk;
}

/** A generated body of `bytes`, made chunk by chunk as the request pulls it; its SHA-256 once it has been read. */
function generatedBody(bytes: number): { body: ReadableStream<Uint8Array>; sha256: () => string } {
  const hash = createHash('sha256');
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index * chunkBytes >= bytes) {
        controller.close();
        return;
      }
      const chunk = chunkOf(index).subarray(0, Math.min(chunkBytes, bytes - index * chunkBytes));
      index += 1;
      hash.update(chunk);
      controller.enqueue(chunk);
    },
  });
  return { body, sha256: () => hash.digest('hex') };
}

async function sha256Of(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

function headersOf(person: Person): Record<string, string> {
  const cookie = [...person.browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return { origin: person.browser.origin, cookie, 'content-type': 'application/octet-stream' };
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server);
  ({ deviceId } = await createWorkspace(admin));
  const projectId = await insertProject(server, { deviceId, team: [admin.id], name: 'Large evidence valve' });
  const response = await admin.browser.postJson(`${base()}/entries`, {
    projectId,
    kind: 'verification',
    title: 'Pulsatile durability recording',
  });
  expect(response.status).toBe(201);
  entryId = (await json<DesignHistoryEntry>(response)).id;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('a large attachment', () => {
  it('streams 25 MB without a declared length into storage under its SHA-256, and downloads the same bytes', async () => {
    const generated = generatedBody(streamedBytes);
    const response = await fetch(
      new URL(`${base()}/entries/${entryId}/attachments?name=recording.bin`, server.origin),
      {
        method: 'POST',
        headers: headersOf(admin),
        body: generated.body,
        duplex: 'half',
      },
    );
    expect(response.status).toBe(201);
    const attachment = await json<DesignHistoryAttachment>(response);
    const sha256 = generated.sha256();
    expect(attachment).toMatchObject({ fileName: 'recording.bin', bytes: streamedBytes, sha256 });

    const stored = await server.context.blobs.open('eu', attachmentStorageKey(deviceId, sha256));
    expect(stored?.bytes).toBe(streamedBytes);
    expect(await sha256Of(stored!.stream)).toBe(sha256);
    // Nothing is left under the temporary key the upload was written to.
    const left: string[] = [];
    for await (const blob of server.context.blobs.list('eu', `design-history/${deviceId}/attachments/`))
      left.push(blob.key);
    expect(left).toEqual([attachmentStorageKey(deviceId, sha256)]);

    const download = await admin.browser.get(attachment.download);
    expect(download.status).toBe(200);
    expect(await sha256Of(download.body!)).toBe(sha256);
  }, 120_000);

  it('over the limit by its declared length is refused with 413 before the body is read, and stores nothing', async () => {
    const before = await count('design_history_attachments');
    const events = await count('domain_events');
    const url = new URL(`${base()}/entries/${entryId}/attachments?name=too-large.bin`, server.origin);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { ...headersOf(admin), 'content-length': String(attachmentMaxBytes + 1) },
      });
      request.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => (body += part));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      // A first chunk only: the answer must come without the rest.
      request.write(chunkOf(0));
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { error: { message: string } }).error.message).toBe(attachmentTooBigMessage);
    expect(await count('design_history_attachments')).toBe(before);
    expect(await count('domain_events')).toBe(events);
  }, 60_000);
});
