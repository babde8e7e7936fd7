// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { BlobReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { ZipArchive, compressEntry, crc32 } from './zipArchive';

/** Bytes of every length mod 8 and content that deflates (repeats) and does not (a pseudo-random stream). */
function sample(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    bytes[i] = i % 3 === 0 ? state >>> 24 : i & 0xff;
  }
  return bytes;
}

describe('the de-identified zip', () => {
  it('CRC-32 equals zlib’s, whole or continued over chunks', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926); // the check value of the standard
    for (const length of [0, 1, 7, 8, 9, 1000, 65_537]) {
      const bytes = sample(length, length + 1);
      expect(crc32(bytes)).toBe(zlibCrc32(bytes));
      const half = length >> 1;
      expect(crc32(bytes.subarray(half), crc32(bytes.subarray(0, half)))).toBe(zlibCrc32(bytes));
    }
  });

  it('entries read back byte for byte with their CRC checked, by zip.js and by Info-ZIP’s unzip', async () => {
    const contents = new Map<string, Uint8Array>([
      ['P0123456789AB/2.25.1/2.25.2/2.25.3.dcm', sample(300_000, 1)],
      ['empty.txt', new Uint8Array(0)],
      ['additional-files/1-café.txt', new TextEncoder().encode('naïve notes')],
    ]);
    const archive = new ZipArchive();
    for (const [name, bytes] of contents) {
      // in uneven chunks, as the DICOM writer yields them
      archive.add(await compressEntry(name, [bytes.subarray(0, 1000), bytes.subarray(1000)]));
    }
    const zip = archive.close();
    const reader = new ZipReader(new BlobReader(zip));
    const entries = await reader.getEntries();
    expect(entries.map((e) => e.filename)).toEqual([...contents.keys()]);
    for (const entry of entries) {
      if (entry.directory) continue;
      const bytes = await entry.getData(new Uint8ArrayWriter(), { checkSignature: true });
      expect(bytes).toEqual(contents.get(entry.filename));
    }
    await reader.close();
    expect(entries[0]!.compressedSize).toBeLessThan(entries[0]!.uncompressedSize);

    if (spawnSync('sh', ['-c', 'command -v unzip']).status !== 0) return;
    const dir = mkdtempSync(join(tmpdir(), 'zip-archive-'));
    try {
      writeFileSync(join(dir, 'out.zip'), new Uint8Array(await zip.arrayBuffer()));
      const test = spawnSync('unzip', ['-t', join(dir, 'out.zip')], { encoding: 'utf8' });
      expect(test.stdout).toContain('No errors detected');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
