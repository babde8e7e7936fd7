import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { expect, type Locator, type Page } from '@playwright/test';

// Helpers of the design history journeys: a new entry written on the page, and the files it carries checked byte
// for byte (by SHA-256) as downloaded and inside the evidence ZIP.

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The SHA-256 of a file on disk, read as a stream (a download can be hundreds of megabytes). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * On /design-history: opens "Add entry" and chooses the entry's kind and title; answers the form, not yet sent (the
 * journey may attach files before it presses "Add entry").
 */
export async function startNewEntry(page: Page, kind: string, title: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add entry' }).click();
  const form = page.getByRole('form', { name: 'New design history entry' });
  await form.getByLabel('Entry kind').click();
  await page.getByRole('option', { name: kind, exact: true }).click();
  await form.getByLabel(/^Title/).fill(title);
  return form;
}

/** Sends the new entry's form and answers the entry's item on the timeline. */
export async function addNewEntry(page: Page, form: Locator, title: string): Promise<Locator> {
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(page.getByText('The entry was added to the design history.')).toBeVisible();
  return page
    .getByRole('list', { name: 'Design history' })
    .getByTestId('design-history-item')
    .filter({ hasText: title });
}

/**
 * Asks for the shown project's evidence ZIP, which its attachments make too large to be made at once: the server
 * queues a job (202). Answers the "Design history files" region, which lists it being made, then ready.
 */
export async function requestQueuedEvidenceZip(page: Page): Promise<Locator> {
  const asked = page.waitForResponse(
    (response) => response.url().endsWith('/design-history/exports') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Export evidence ZIP' }).click();
  expect((await asked).status()).toBe(202);
  return page.getByRole('region', { name: 'Design history files' });
}

/** The attached files an evidence ZIP carries (`attachments/…/<id>-<name>`): each file name with its SHA-256. */
export async function attachmentHashesInZip(zipPath: string): Promise<Record<string, string>> {
  const reader = new ZipReader(new Uint8ArrayReader(new Uint8Array(await readFile(zipPath))));
  const carried: Record<string, string> = {};
  for (const item of await reader.getEntries())
    if (!item.directory && item.filename.startsWith('attachments/'))
      carried[item.filename.replace(/^.*\/[0-9a-f-]{36}-/, '')] = sha256(await item.getData(new Uint8ArrayWriter()));
  await reader.close();
  return carried;
}
