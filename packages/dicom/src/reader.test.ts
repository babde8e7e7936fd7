import { describe, expect, it } from 'vitest';
import { EXPLICIT, IMPLICIT, JPEG_BASELINE, hostileCt, part10, pixels, type PatientSpec } from '../test/syntheticDicom';
import { bytesSource } from './byteSource';
import { DicomFormatError } from './errors';
import { readDicom } from './reader';
import { Tag } from './tags';
import type { ByteSource, DicomElement } from './types';
import { readString, stringOf } from './values';
import { writeDicomBytes } from './writer';

const patient: PatientSpec = {
  name: 'DOE^JOHN',
  id: 'MRN-998877',
  birthDate: '19610315',
  studyUid: '1.2.826.0.1.3680043.2.1125.1',
  studyDate: '20230412',
  seriesUid: '1.2.826.0.1.3680043.2.1125.1.2',
  sopUid: '1.2.826.0.1.3680043.2.1125.1.2.3',
  referencedSopUid: '1.2.826.0.1.3680043.2.1125.1.2.9',
};

const find = (elements: DicomElement[], tag: number): DicomElement | undefined => elements.find((e) => e.tag === tag);

describe('readDicom', () => {
  it.each([
    ['Explicit VR Little Endian', EXPLICIT],
    ['Implicit VR Little Endian', IMPLICIT],
  ])('reads %s with sequences of defined and undefined length at any depth', async (_name, transferSyntax) => {
    const file = await readDicom(bytesSource(part10(hostileCt(patient), { transferSyntax })));
    expect(file.transferSyntaxUid).toBe(transferSyntax);
    expect(stringOf(file.dataset, Tag.PatientName)).toBe('DOE^JOHN');
    expect(stringOf(file.dataset, Tag.SopInstanceUid)).toBe(patient.sopUid);
    const referenced = find(file.dataset, 0x00081140);
    expect(referenced?.items?.[0] && stringOf(referenced.items[0], 0x00081155)).toBe(patient.referencedSopUid);
    const others = find(file.dataset, 0x00101002);
    const qualifiers = others?.items?.[0] && find(others.items[0], 0x00100024);
    expect(qualifiers?.items?.[0] && stringOf(qualifiers.items[0], 0x00400032)).toBe('Springfield General Registry');
    expect(find(file.dataset, Tag.PixelData)?.value).toEqual(pixels(4, 4));
  });

  it('leaves values above the bulk threshold in the source and reads a large file by small ranges', async () => {
    const bytes = part10(hostileCt(patient, 1024, 1024)); // 2 MiB of pixel data
    let read = 0;
    const source: ByteSource = {
      size: bytes.length,
      read: (offset, length) => {
        read += length;
        return Promise.resolve(bytes.subarray(offset, offset + length));
      },
    };
    const file = await readDicom(source);
    const pixelData = find(file.dataset, Tag.PixelData);
    expect(pixelData?.value).toBeUndefined();
    expect(pixelData?.bulk?.length).toBe(1024 * 1024 * 2);
    expect(read).toBeLessThan(300 * 1024); // the header window, not the pixels
    const written = await writeDicomBytes(file, source);
    const again = await readDicom(bytesSource(written), { bulkThreshold: Number.MAX_SAFE_INTEGER });
    expect(sameBytes(find(again.dataset, Tag.PixelData)?.value, pixels(1024, 1024))).toBe(true);
  });

  it('reads encapsulated pixel data as fragments and writes them back byte for byte', async () => {
    const fragments = [new Uint8Array(0), new Uint8Array([0xff, 0xd8, 1, 2, 3, 4, 0xff, 0xd9]), new Uint8Array([9, 8])];
    const dataset = hostileCt(patient).map((n) =>
      n.tag === Tag.PixelData ? { tag: Tag.PixelData, vr: 'OB' as const, fragments } : n,
    );
    const file = await readDicom(bytesSource(part10(dataset, { transferSyntax: JPEG_BASELINE })));
    expect(find(file.dataset, Tag.PixelData)?.fragments?.map((f) => f.length)).toEqual([0, 8, 2]);
    const source = bytesSource(part10(dataset, { transferSyntax: JPEG_BASELINE }));
    const again = await readDicom(bytesSource(await writeDicomBytes(file, source)));
    const ranges = find(again.dataset, Tag.PixelData)?.fragments ?? [];
    expect(ranges.map((f) => f.length)).toEqual([0, 8, 2]);
  });

  it('reads a UN sequence of undefined length as Implicit VR items (PS3.5 6.2.2)', async () => {
    const item = new Uint8Array([
      0x10,
      0x00,
      0x10,
      0x00,
      4,
      0,
      0,
      0,
      ...new TextEncoder().encode('AB^C'), // (0010,0010) implicit, 4 bytes
    ]);
    const un = new Uint8Array([
      ...[0x33, 0x00, 0x10, 0x10],
      ...new TextEncoder().encode('UN'),
      0,
      0,
      0xff,
      0xff,
      0xff,
      0xff,
      ...[0xfe, 0xff, 0x00, 0xe0],
      ...[item.length, 0, 0, 0],
      ...item,
      ...[0xfe, 0xff, 0xdd, 0xe0],
      0,
      0,
      0,
      0,
    ]);
    const base = part10([{ tag: Tag.SopInstanceUid, vr: 'UI', text: '1.2.3' }]);
    const bytes = new Uint8Array([...base, ...un]);
    const file = await readDicom(bytesSource(bytes));
    const element = find(file.dataset, 0x00331010);
    expect(element?.vr).toBe('SQ');
    expect(element?.items?.[0] && stringOf(element.items[0], Tag.PatientName)).toBe('AB^C');
  });

  it('round-trips a file: read, write, read gives the same attributes and values', async () => {
    for (const transferSyntax of [EXPLICIT, IMPLICIT]) {
      const original = await readDicom(bytesSource(part10(hostileCt(patient), { transferSyntax })));
      const again = await readDicom(bytesSource(await writeDicomBytes(original)));
      expect(again.dataset).toEqual(original.dataset);
      expect(again.transferSyntaxUid).toBe(transferSyntax);
    }
  });

  it('refuses what it cannot read, each with its reason', async () => {
    const good = part10(hostileCt(patient));
    const refusal = async (bytes: Uint8Array): Promise<DicomFormatError> => {
      const error = await readDicom(bytesSource(bytes)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DicomFormatError);
      return error as DicomFormatError;
    };
    expect((await refusal(new TextEncoder().encode('just some text, not an image'))).code).toBe('not-dicom');
    expect((await refusal(good.subarray(0, good.length - 7))).code).toBe('truncated');
    expect((await refusal(part10(hostileCt(patient), { transferSyntax: '1.2.840.10008.1.2.2' }))).message).toMatch(
      /Big Endian/,
    );
    expect((await refusal(part10(hostileCt(patient), { transferSyntax: '1.2.840.10008.1.2.1.99' }))).message).toMatch(
      /Deflated/,
    );
    const badVr = good.slice();
    const at = latinIndex(badVr, 'ISO_IR 100') - 4; // the VR of Specific Character Set
    badVr[at] = 0x3f;
    expect((await refusal(badVr)).code).toBe('malformed');
  });

  it('reads a value as ISO 8859-1 without its padding', () => {
    expect(readString(new Uint8Array([0x31, 0x2e, 0x32, 0x00]))).toBe('1.2');
  });
});

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((v, i) => v === b[i]);
}

function latinIndex(bytes: Uint8Array, text: string): number {
  return new TextDecoder('latin1').decode(bytes).indexOf(text);
}
