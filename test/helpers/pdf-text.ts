import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';

/**
 * The one PDF text reader of the tests: Debian's poppler-utils `pdftotext`, a reader independent of the pdfkit that
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

/**
 * Every content stream of a PDF written by pdfkit, inflated (Latin-1), in file order: for the drawing operators a
 * chart is made of (pdftotext reads text only).
 */
export function pdfContentStreams(bytes: Uint8Array): string[] {
  const pdf = Buffer.from(bytes);
  const streams: string[] = [];
  let at = 0;
  for (;;) {
    const start = pdf.indexOf('stream', at, 'latin1');
    if (start < 0) break;
    let from = start + 'stream'.length;
    if (pdf[from] === 0x0d) from += 1;
    if (pdf[from] === 0x0a) from += 1;
    const end = pdf.indexOf('endstream', from, 'latin1');
    if (end < 0) break;
    at = end + 'endstream'.length;
    const dictionary = pdf.subarray(Math.max(0, start - 200), start).toString('latin1');
    const raw = pdf.subarray(from, end);
    try {
      streams.push((dictionary.includes('/FlateDecode') ? inflateSync(raw) : raw).toString('latin1'));
    } catch {
      continue;
    }
  }
  return streams;
}
