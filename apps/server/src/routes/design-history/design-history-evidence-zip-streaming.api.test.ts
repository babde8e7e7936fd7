import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  DesignHistoryAttachment,
  DesignHistoryEntry,
  DesignHistoryExport,
  DesignHistoryExportList,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { designHistoryWorld } from '../../../test/fixtures/design-history.fixtures';
import { json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { createUpload, metadataOf, tus } from '../../../test/fixtures/upload.fixtures';
import { pollUntil } from '../../../test/helpers/server-process';
import { unzippedSha256, unzippedText, unzipTest } from '../../../../../test/helpers/unzip';

/**
 * The evidence ZIP of a history with a large attachment (docs/decisions/design-history-attachments.md, "The evidence
 * ZIP, streamed"): a 120 MB file (zeros, sparse on disk: nothing of it is made in memory) goes by the resumable
 * upload in one streamed PATCH and is attached; the export job streams it from storage into the ZIP and the ZIP
 * into storage, the download streams it back to disk, and Info-ZIP's `unzip` (an independent reader) checks every
 * member's CRC-32 and gives each listed file's SHA-256 again. Meanwhile this process (the server runs in it) must not
 * grow by anything near the file: after a warm-up export has paid the one-time costs (the CPU-pool thread, about
 * 110 MB whatever the file's size), the growth is bounded by 50 MB, where holding the attachment (or the ZIP) whole
 * once would add 120 MB (measured 26 MB with a 150 MB file; the bench alone grows 25 MiB for a 1 GB file). Embedded
 * database only: the streams do not touch the database, and the export job's paths run on PostgreSQL in
 * design-history-export-job.api.test.ts.
 */
const fileBytes = 120 * 1000 * 1000;
const growthBound = 50 * 1000 * 1000;

let server: TestServer;
let member: Person;
let deviceId = '';
let projectId = '';
let folder = '';

const base = () => `/api/devices/${deviceId}/design-history`;

beforeAll(async () => {
  ({
    server,
    deviceId,
    projectId,
    people: { member },
  } = await designHistoryWorld('Streamed evidence'));
  folder = mkdtempSync(join(tmpdir(), 'evidence-zip-'));
});

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await server?.stop();
});

/** The SHA-256 of a file on disk, read as a stream. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/** The most this process's resident memory grows above where it was while `work` runs (sampled every 5 ms). */
async function rssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    return { result, growth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(sampler);
  }
}

/** Queues a ZIP export of the project's history, waits for it and downloads it to `zipPath` as a stream. */
async function exportedZip(zipPath: string): Promise<DesignHistoryExport> {
  const queued = await member.browser.postJson(`${base()}/exports`, { projectId, format: 'zip' });
  expect(queued.status).toBe(202);
  const { id } = await json<DesignHistoryExport>(queued);
  const done = await pollUntil(
    'the queued export',
    async () =>
      (await json<DesignHistoryExportList>(await member.browser.get(`${base()}/exports`))).items.find(
        (item) => item.id === id,
      ) ?? null,
    (found) => found.status !== 'queued',
    // A few seconds on a quiet machine; minutes on a loaded one (the job runner, the CPU pool, the file on disk).
    300_000,
  );
  expect(done.status, done.error ?? '').toBe('ready');
  const download = await member.browser.get(done.download!);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-length')).toBe(String(done.bytes));
  await pipeline(Readable.fromWeb(download.body! as never), createWriteStream(zipPath));
  return done;
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the evidence ZIP with a large attachment', () => {
  it('is streamed from storage into the ZIP and back: bounded memory, every SHA-256 given again by unzip', async () => {
    const entry = await json<DesignHistoryEntry>(
      await member.browser.postJson(`${base()}/entries`, {
        projectId,
        kind: 'verification',
        title: 'High-speed video of the durability bench',
        body: 'The recording, whole.',
      }),
    );
    // Once without the large file: the export's one-time costs (the CPU-pool thread that lays out the PDF, the
    // modules it loads, the ZIP writer) are paid here, so the growth measured below is the file's.
    const warmUp = await member.browser.postJson(`${base()}/exports`, { projectId, format: 'zip' });
    expect(warmUp.status).toBe(200); // small enough to be answered in the request
    await warmUp.arrayBuffer();

    const source = join(folder, 'bench-video.bin');
    writeFileSync(source, '');
    truncateSync(source, fileBytes);
    const sha256 = await fileSha256(source);

    // The browser's path for a file above the one-request limit: a tus upload, here in one streamed PATCH.
    const created = await createUpload(member.browser, deviceId, fileBytes, 'bench-video.bin', {
      'upload-metadata': metadataOf({
        filename: 'bench-video.bin',
        filetype: 'application/octet-stream',
        purpose: 'design_history_attachment',
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const location = created.headers.get('location')!;
    const patched = await fetch(new URL(location, member.browser.origin), {
      method: 'PATCH',
      headers: {
        ...tus,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(fileBytes),
        origin: member.browser.origin,
        cookie: [...member.browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      body: Readable.toWeb(createReadStream(source)),
      duplex: 'half',
    });
    expect(patched.status, await patched.clone().text()).toBe(204);
    const attached = await member.browser.postJson(`${base()}/entries/${entry.id}/attachments/uploaded`, {
      uploadId: location.split('/').pop(),
      sha256,
    });
    expect(attached.status, await attached.clone().text()).toBe(201);
    const attachment = await json<DesignHistoryAttachment>(attached);

    const zipPath = join(folder, 'evidence.zip');
    const { result: ready, growth } = await rssGrowth(() => exportedZip(zipPath));
    expect(growth).toBeLessThan(growthBound);

    // The download is the file the trail recorded; unzip finds every member intact.
    expect(await fileSha256(zipPath)).toBe(ready.sha256);
    expect(ready.bytes).toBeGreaterThan(fileBytes);
    expect(unzipTest(zipPath)).toContain('No errors detected');
    const manifest = JSON.parse(await unzippedText(zipPath, 'manifest.json')) as {
      attachments: number;
      files: { name: string; bytes: number; sha256: string }[];
    };
    const listed = manifest.files.find((file) => file.name.startsWith(`attachments/${entry.id}/`));
    expect(listed).toEqual({
      name: `attachments/${entry.id}/${attachment.id}-bench-video.bin`,
      bytes: fileBytes,
      sha256,
    });
    expect(manifest.attachments).toBe(1);
    for (const file of manifest.files) expect(await unzippedSha256(zipPath, file.name), file.name).toBe(file.sha256);
  }, 600_000);
});
