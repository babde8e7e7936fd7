import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The one PDF reader of the tests: Debian's poppler-utils `pdftotext`, a reader independent of the pdfkit that
 * writes the workspace's reports (a PDF it cannot read fails the test). `npm test` installs it where missing
 * (tools/test-prerequisites.mjs).
 */
function pdftotext(bytes: Uint8Array, layout: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'test-pdf-'));
  try {
    const path = join(dir, 'file.pdf');
    writeFileSync(path, bytes);
    const out = spawnSync('pdftotext', [...(layout ? ['-layout'] : []), path, '-'], { encoding: 'utf8' });
    if (out.error) throw new Error(`pdftotext is missing: install poppler-utils (npm test does). ${out.error.message}`);
    if (out.status !== 0) throw new Error(`pdftotext could not read the PDF: ${out.stderr}`);
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A PDF's text laid out as on the page (columns side by side). */
export function pdfToText(bytes: Uint8Array): string {
  return pdftotext(bytes, true);
}

/** A PDF's text in reading order with every run of white space as one space: phrases wrapped over lines read whole. */
export function pdfPhrases(bytes: Uint8Array): string {
  return pdftotext(bytes, false).replace(/\s+/g, ' ');
}
