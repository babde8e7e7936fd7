import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';

/** Readers of the files the server exports (the audit bundle, the design history file), for the tests. */

/** Every file of a ZIP by its name. */
export async function unzipFiles(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const reader = new ZipReader(new Uint8ArrayReader(bytes));
  const files = new Map<string, Uint8Array>();
  for (const entry of await reader.getEntries())
    if (!entry.directory) files.set(entry.filename, await entry.getData(new Uint8ArrayWriter()));
  await reader.close();
  return files;
}

/** Whether Debian's poppler-utils (pdftotext, an independent PDF reader) is installed. */
export const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;

/** A PDF's text as pdftotext reads it, laid out as on the page (columns side by side). */
export function pdfToText(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'exported-pdf-'));
  try {
    const path = join(dir, 'file.pdf');
    writeFileSync(path, bytes);
    const out = spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`pdftotext could not read the PDF: ${out.stderr}`);
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
