import { describe, expect, it } from 'vitest';
import { EXPLICIT, IMPLICIT, JPEG_BASELINE, hostileCt, part10, type Node, JANE_DOE } from '../test/syntheticDicom';
import { bytesSource } from './byteSource';
import { maskProblem, maskedSource, type MaskRegion } from './mask';
import { readDicom } from './reader';
import type { ByteSource, DicomFile } from './types';
import { writeDicomBytes } from './writer';

const patient = JANE_DOE;
const PIXEL_DATA = 0x7fe00010;
const u16 = (v: number) => new Uint8Array([v & 0xff, (v >> 8) & 0xff]);

interface Image {
  rows: number;
  columns: number;
  frames: number;
  samples: number;
  bytesPerSample: number;
  planar: boolean;
}

/** An image's pixel data with no zero byte, so that every masked byte shows. */
function pixelBytes(image: Image): Uint8Array {
  const n = image.rows * image.columns * image.frames * image.samples * image.bytesPerSample;
  return Uint8Array.from({ length: n }, (_, i) => 1 + ((i * 31) % 250));
}

function dicomOf(image: Image, data: Uint8Array, transferSyntax = EXPLICIT): Uint8Array {
  const attributes: Node[] = [
    { tag: 0x00280002, vr: 'US', bytes: u16(image.samples) },
    ...(image.samples === 3 ? [{ tag: 0x00280006, vr: 'US', bytes: u16(image.planar ? 1 : 0) }] : []),
    { tag: 0x00280008, vr: 'IS', text: String(image.frames) },
    { tag: 0x00280010, vr: 'US', bytes: u16(image.rows) },
    { tag: 0x00280011, vr: 'US', bytes: u16(image.columns) },
    { tag: 0x00280100, vr: 'US', bytes: u16(8 * image.bytesPerSample) },
    { tag: PIXEL_DATA, vr: image.bytesPerSample === 1 ? 'OB' : 'OW', bytes: data },
  ];
  const nodes = [
    ...hostileCt(patient, image.rows, image.columns).filter((n) => !attributes.some((a) => a.tag === n.tag)),
    ...attributes,
  ].sort((a, b) => a.tag - b.tag);
  return part10(nodes, { transferSyntax });
}

/**
 * The expected pixel data, computed from the geometry alone (not from the module's byte walk): a byte is 0 when
 * its pixel lies in a region, otherwise as it was.
 */
function expectedMask(image: Image, data: Uint8Array, regions: MaskRegion[]): Uint8Array {
  const out = data.slice();
  const inside = (x: number, y: number) =>
    regions.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
  const { rows, columns, samples, bytesPerSample: b } = image;
  for (let f = 0; f < image.frames; f++)
    for (let s = 0; s < samples; s++)
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < columns; x++) {
          if (!inside(x, y)) continue;
          const frameStart = f * rows * columns * samples * b;
          const at = image.planar
            ? frameStart + s * rows * columns * b + (y * columns + x) * b
            : frameStart + ((y * columns + x) * samples + s) * b;
          out.fill(0, at, at + b);
        }
  return out;
}

/** A source read in small, odd-sized chunks: masking must not depend on where a read starts or ends. */
async function readAll(source: ByteSource, chunk: number): Promise<Uint8Array> {
  const out = new Uint8Array(source.size);
  for (let at = 0; at < source.size; at += chunk) out.set(await source.read(at, Math.min(chunk, source.size - at)), at);
  return out;
}

const pixelDataOf = async (bytes: Uint8Array): Promise<Uint8Array> => {
  const file = await readDicom(bytesSource(bytes), { bulkThreshold: 1 << 30 });
  return file.dataset.find((e) => e.tag === PIXEL_DATA)!.value!;
};

async function masked(bytes: Uint8Array, regions: MaskRegion[], bulkThreshold: number, chunk = 4096) {
  const file: DicomFile = await readDicom(bytesSource(bytes), { bulkThreshold });
  const source = maskedSource(file, bytesSource(bytes), regions);
  const copied = await readAll(source, chunk);
  return writeDicomBytes(file, bytesSource(copied));
}

describe('masking burned-in text (Clean Pixel Data Option)', () => {
  const regions = [
    { x: 1, y: 0, width: 3, height: 2 },
    { x: 5, y: 4, width: 10, height: 10 }, // runs off the image: clipped
  ];

  it.each<[string, Image, string]>([
    [
      '16-bit monochrome, 3 frames',
      { rows: 6, columns: 7, frames: 3, samples: 1, bytesPerSample: 2, planar: false },
      EXPLICIT,
    ],
    [
      '8-bit monochrome, Implicit VR',
      { rows: 5, columns: 9, frames: 2, samples: 1, bytesPerSample: 1, planar: false },
      IMPLICIT,
    ],
    [
      'RGB by pixel, 2 frames',
      { rows: 6, columns: 6, frames: 2, samples: 3, bytesPerSample: 1, planar: false },
      EXPLICIT,
    ],
    [
      'RGB by plane, 2 frames',
      { rows: 6, columns: 6, frames: 2, samples: 3, bytesPerSample: 1, planar: true },
      EXPLICIT,
    ],
  ])('zeroes the regions in every frame and sample, and no other byte: %s', async (_name, image, syntax) => {
    const data = pixelBytes(image);
    const original = dicomOf(image, data, syntax);
    const expected = expectedMask(image, data, regions);
    const asRead = await readDicom(bytesSource(original), { bulkThreshold: 40 });
    expect(asRead.dataset.find((e) => e.tag === PIXEL_DATA)?.bulk).toBeDefined();
    for (const chunk of [7, 64, 1 << 20]) {
      // Pixel data left in the source (read range by range) and read inline give the same file.
      const fromSource = await masked(original, regions, 40, chunk);
      const inline = await masked(original, regions, 1 << 30, chunk);
      expect(await pixelDataOf(fromSource)).toEqual(expected);
      expect(inline).toEqual(fromSource);
    }
    // Everything but the pixel data is as a plain copy writes it.
    const plain = await writeDicomBytes(await readDicom(bytesSource(original)), bytesSource(original));
    const maskedFile = await masked(original, regions, 40);
    const at = plain.length - data.length;
    expect(maskedFile.subarray(0, at)).toEqual(plain.subarray(0, at));
  });

  it('changes nothing when no region is given', async () => {
    const image = { rows: 4, columns: 4, frames: 2, samples: 1, bytesPerSample: 2, planar: false };
    const data = pixelBytes(image);
    expect(await pixelDataOf(await masked(dicomOf(image, data), [], 40, 5))).toEqual(data);
  });

  it('refuses compressed pixel data, saying why', async () => {
    const nodes = hostileCt(patient).filter((n) => n.tag !== PIXEL_DATA);
    const bytes = part10(
      [
        ...nodes,
        { tag: PIXEL_DATA, vr: 'OB', fragments: [new Uint8Array(0), new Uint8Array([0xff, 0xd8, 0xff, 0xd9])] },
      ],
      { transferSyntax: JPEG_BASELINE },
    );
    const file = await readDicom(bytesSource(bytes));
    const reason =
      'Its pixel data is compressed: it cannot be masked in the browser. Keep it as it is or leave it out.';
    expect(maskProblem(file)).toBe(reason);
    expect(() => maskedSource(file, bytesSource(bytes), regions)).toThrow(reason);
  });
});
