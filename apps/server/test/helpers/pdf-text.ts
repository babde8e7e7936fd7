import { inflateSync } from 'node:zlib';

/** WinAnsi's bytes 0x80–0x9f that are not Latin-1 (the few the reports write). */
const winAnsi: Record<number, string> = {
  0x85: '…',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
};

function decodeHex(hex: string): string {
  let text = '';
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const byte = parseInt(hex.slice(i, i + 2), 16);
    text += winAnsi[byte] ?? String.fromCharCode(byte);
  }
  return text;
}

/** Every content stream of a PDF written by pdfkit, inflated (Latin-1), in file order: for drawing operators. */
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

/**
 * The text of a PDF written by pdfkit with the standard fonts (the workspace's reports), for tests: every content
 * stream inflated, each `TJ`/`Tj` operation's hex strings decoded (WinAnsi), one operation a line, pages in order.
 * Not a general PDF reader: enough to check what a report says.
 */
export function pdfTextOf(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (const content of pdfContentStreams(bytes))
    for (const match of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes =
        match[1] !== undefined ? [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]!) : [match[2]!];
      lines.push(hexes.map(decodeHex).join(''));
    }
  return lines.join('\n');
}

/** The text with every run of white space as one space: phrases wrapped over lines read whole. */
export function pdfPhrases(bytes: Uint8Array): string {
  return pdfTextOf(bytes).replace(/\s+/g, ' ');
}
