import { createCipheriv } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Route } from '@playwright/test';
import {
  addNewEntry,
  attachmentHashesInZip,
  requestQueuedEvidenceZip,
  sha256,
  sha256OfFile,
  startNewEntry,
} from './design-history-helpers';
import { createProject, createWorkspace, signUp } from './workspace-helpers';

// Runs against the real server (E2E_BASE_URL, E2E_DATA_DIR). Issue 20: a file above the one-request limit (100 MiB)
// goes from the design history page as a resumable upload (tus, pieces of 8 MiB). Ada attaches 100 MiB + 1 byte to a
// new entry and sees how far it is. The connection breaks twice: once while online (the page retries by itself) and
// once with the browser offline (no automatic retry: "Upload failed" with Try again, spec §8). Each time the upload
// asks the server how much it holds (HEAD) and continues from there, never from 0. The attached file is listed with
// its size and SHA-256; its download and the project's evidence ZIP carry the very bytes she chose.

// No trace: it would record every request's body (over 100 MB here), which costs far more than the upload itself.
test.use({ trace: 'off' });

const mebibyte = 1024 * 1024;
const pieceBytes = 8 * mebibyte;
const fileBytes = 100 * mebibyte + 1;
const fileName = 'durability-recording.bin';

/** Bytes that look random and are the same each run: the AES-256-CTR key stream of a fixed key. */
function seededBytes(length: number): Buffer {
  const cipher = createCipheriv('aes-256-ctr', Buffer.alloc(32, 7), Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(Buffer.alloc(length)), cipher.final()]);
}

/** A promise with its resolve at hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** The percentage the page shows while sending. */
const percentShown = (text: string | null) =>
  Number(/^Sending “durability-recording\.bin”: (\d+) %$/.exec(text ?? '')?.[1]);

test('a file above 100 MB is attached by a resumable upload that continues from the server’s offset', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const folder = await mkdtemp(join(tmpdir(), 'design-history-attachment-'));
  try {
    const bytes = seededBytes(fileBytes);
    const hash = sha256(bytes);
    const filePath = join(folder, fileName);
    await writeFile(filePath, bytes);

    await signUp(page, '/', 'Ada Admin');
    await expect(page).toHaveURL(/\/onboarding\/body-part$/);
    const deviceId = await createWorkspace(page, `Valve R ${Date.now()}`);
    const name = `Durability bench ${Date.now() % 1e6}`;
    const projectId = await createProject(page, deviceId, name);
    await page.goto(`/design-history?projectId=${projectId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Design history' })).toBeVisible();
    const title = 'Durability test, 200 million cycles';
    const entry = await addNewEntry(page, await startNewEntry(page, 'Verification', title), title);

    // What the upload asks of the server, in order: each PATCH with the offset it starts at, and the offset each HEAD
    // was answered (listened to, not routed: a routed request's body passes through Playwright, seconds per piece).
    const asked: string[] = [];
    const uploadUrl = /\/uploads\/[^/]+$/;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && uploadUrl.test(request.url()))
        asked.push(`PATCH ${request.headers()['upload-offset']}`);
    });
    page.on('response', (response) => {
      if (response.request().method() === 'HEAD' && uploadUrl.test(response.url()))
        asked.push(`HEAD ${response.headers()['upload-offset']}`);
    });
    // Routed until the journey has seen both resumptions: the 2nd PATCH is broken (online: the page retries by
    // itself), the 3rd held until the journey has read the progress, the 4th broken with the browser offline, the 5th
    // (after Try again) held too.
    const routed = '**/uploads/*';
    let held = deferred<{ route: Route; offset: number }>();
    let patches = 0;
    await page.route(routed, async (route) => {
      const request = route.request();
      if (request.method() !== 'PATCH') return route.continue();
      patches += 1;
      if (patches === 2) return route.abort('connectionreset');
      if (patches === 4) {
        // Offline first, so that tus-js-client does not retry by itself.
        await context.setOffline(true);
        return route.abort('internetdisconnected');
      }
      if (patches === 3 || patches === 5)
        held.resolve({ route, offset: Number(await request.headerValue('upload-offset')) });
      else await route.continue();
    });

    await entry.getByLabel(`Files to attach to ${title}`).setInputFiles(filePath);
    await expect(entry.getByRole('button', { name: 'Attaching…' })).toBeDisabled();

    // The second piece breaks; the page asks the server, which holds the first piece, and goes on from there (8 MiB),
    // showing the share the server holds (8 MiB of 100 MiB: 7 %), not 0.
    const third = await held.promise;
    held = deferred();
    expect(third.offset).toBe(pieceBytes);
    const progress = entry.getByRole('status');
    await expect(progress).toHaveText(/^Sending “durability-recording\.bin”: \d+ %$/);
    expect(percentShown(await progress.textContent())).toBeGreaterThanOrEqual(7);
    await third.route.continue();

    // The fourth breaks with the browser offline: no retry, "Upload failed" with Try again.
    const failed = entry.getByRole('alert');
    await expect(failed).toContainText(`“${fileName}” was not attached: Upload failed.`, { timeout: 40_000 });
    await expect(progress).toBeHidden();
    await context.setOffline(false);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(failed).toBeHidden();
    // Try again continues from what the server holds (16 MiB: 15 %), not from 0.
    const fifth = await held.promise;
    expect(fifth.offset).toBe(2 * pieceBytes);
    await expect(progress).toHaveText(/^Sending “durability-recording\.bin”: \d+ %$/);
    expect(percentShown(await progress.textContent())).toBeGreaterThanOrEqual(15);
    await fifth.route.continue();
    await page.unroute(routed);

    // Attached: listed with its size and SHA-256 (the server checked both).
    const files = entry.getByRole('list', { name: 'Attachments' });
    await expect(files.getByTestId('attachment')).toHaveText(`${fileName} 100 MB · SHA-256 ${hash}`, {
      timeout: 60_000,
    });
    await expect(entry.getByRole('button', { name: 'Attach file' })).toBeEnabled();
    await expect(entry.getByRole('alert')).toHaveCount(0);

    // Each broken PATCH was followed by a HEAD answered with the offset it had started at, and the next PATCH went on
    // from there (> 0); every other piece was sent once, none from 0 again.
    const piece = (index: number) => `PATCH ${index * pieceBytes}`;
    expect(asked).toEqual([
      piece(0),
      piece(1),
      `HEAD ${pieceBytes}`,
      piece(1),
      piece(2),
      `HEAD ${2 * pieceBytes}`,
      ...Array.from({ length: 11 }, (_, index) => piece(index + 2)),
    ]);

    // The download has the very bytes.
    const downloading = page.waitForEvent('download');
    await files.getByRole('link', { name: fileName }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    expect(await sha256OfFile(await download.path())).toBe(hash);

    // So does the project's evidence ZIP (made by a job: the attachment passes the limit of a file made at once).
    const zipLink = (await requestQueuedEvidenceZip(page)).getByRole('link', {
      name: /^Download design-history-durability-bench-\d+-[\d-]+\.zip$/,
    });
    await expect(zipLink).toBeVisible({ timeout: 60_000 });
    const zipDownloading = page.waitForEvent('download');
    await zipLink.click();
    const zip = await zipDownloading;
    expect(await attachmentHashesInZip(await zip.path())).toEqual({ [fileName]: hash });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
