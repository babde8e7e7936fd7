import { TransferSyntax } from './tags';
import type { ByteSource, DicomFile } from './types';
import { findElement, uint16Of } from './values';

/**
 * Masking a region of burned-in text (issue 19 item 3; DICOM PS3.15 E.3.1, Clean Pixel Data Option): the pixels of
 * the user's rectangles are set to 0 in every frame, every sample; every other byte of the file stays as it was.
 * Done while the file is copied — a byte source that masks what it reads — so a large multi-frame file is never
 * held whole. Native (uncompressed) little-endian pixel data only: a compressed frame cannot be changed without a
 * codec, so such a series can only be kept as it is or left out (`maskProblem` says why).
 */

/** A rectangle in pixel coordinates of the image: columns from the left, rows from the top; clipped to the image. */
export interface MaskRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

const Pixel = {
  SamplesPerPixel: 0x00280002,
  PlanarConfiguration: 0x00280006,
  Rows: 0x00280010,
  Columns: 0x00280011,
  BitsAllocated: 0x00280100,
  PixelData: 0x7fe00010,
} as const;

/** How the pixel data's bytes are laid out. */
interface PixelLayout {
  /** where the pixel data's value starts in the source file, and its length */
  offset: number;
  length: number;
  rows: number;
  columns: number;
  samples: number;
  bytesPerSample: number;
  /** colour by plane (RRR…GGG…BBB…) rather than by pixel (RGBRGB…) */
  planar: boolean;
}

/** Why the file's pixels cannot be masked, or null when they can. */
export function maskProblem(file: DicomFile): string | null {
  if (
    file.transferSyntaxUid !== TransferSyntax.ExplicitVrLittleEndian &&
    file.transferSyntaxUid !== TransferSyntax.ImplicitVrLittleEndian
  )
    return 'Its pixel data is compressed: it cannot be masked in the browser. Keep it as it is or leave it out.';
  const pixel = findElement(file.dataset, Pixel.PixelData);
  if (!pixel || pixel.fragments || (!pixel.bulk && !pixel.value)) return 'It has no pixel data to mask.';
  const bits = uint16Of(file.dataset, Pixel.BitsAllocated) ?? 0;
  if (bits !== 8 && bits !== 16 && bits !== 32) return `Pixels of ${bits} bits cannot be masked.`;
  if (!(uint16Of(file.dataset, Pixel.Rows) ?? 0) || !(uint16Of(file.dataset, Pixel.Columns) ?? 0))
    return 'It does not say its image size.';
  return null;
}

/** The layout of a maskable file's pixel data (its value's place in the source, or 0 for a value read inline). */
function layoutOf(file: DicomFile): PixelLayout {
  const pixel = findElement(file.dataset, Pixel.PixelData)!;
  return {
    offset: pixel.bulk?.offset ?? 0,
    length: pixel.bulk?.length ?? pixel.value!.length,
    rows: uint16Of(file.dataset, Pixel.Rows)!,
    columns: uint16Of(file.dataset, Pixel.Columns)!,
    samples: uint16Of(file.dataset, Pixel.SamplesPerPixel) ?? 1,
    bytesPerSample: (uint16Of(file.dataset, Pixel.BitsAllocated) ?? 8) / 8,
    planar: uint16Of(file.dataset, Pixel.PlanarConfiguration) === 1,
  };
}

/** Per row, the masked columns as half-open [from, to) spans merged from the regions, clipped to the image. */
function maskedSpans(rows: number, columns: number, regions: readonly MaskRegion[]): Array<Array<[number, number]>> {
  const spans: Array<Array<[number, number]>> = Array.from({ length: rows }, () => []);
  for (const r of regions) {
    const x0 = Math.max(0, Math.floor(r.x));
    const x1 = Math.min(columns, Math.floor(r.x + r.width));
    const y0 = Math.max(0, Math.floor(r.y));
    const y1 = Math.min(rows, Math.floor(r.y + r.height));
    if (x1 <= x0) continue;
    for (let y = y0; y < y1; y++) spans[y]!.push([x0, x1]);
  }
  return spans;
}

/**
 * Zeroes, in `chunk` (bytes of the pixel data's value starting at `start`), the bytes of masked pixels. Walks the
 * masked spans of each frame (and each colour plane) that the chunk overlaps: cost in masked bytes, not in the
 * chunk's size.
 */
function maskChunk(chunk: Uint8Array, start: number, layout: PixelLayout, spans: Array<Array<[number, number]>>): void {
  const { rows, columns, samples, bytesPerSample, planar } = layout;
  const pixelBytes = planar ? bytesPerSample : samples * bytesPerSample;
  const rowBytes = columns * pixelBytes;
  const planeBytes = rows * rowBytes;
  const planes = planar ? samples : 1;
  const frameBytes = planeBytes * planes;
  const end = start + chunk.length;
  for (let frame = Math.floor(start / frameBytes); frame * frameBytes < end; frame++) {
    for (let plane = 0; plane < planes; plane++) {
      const planeStart = frame * frameBytes + plane * planeBytes;
      if (planeStart >= end || planeStart + planeBytes <= start) continue;
      for (let y = 0; y < rows; y++) {
        const rowStart = planeStart + y * rowBytes;
        if (rowStart >= end || rowStart + rowBytes <= start) continue;
        for (const [x0, x1] of spans[y]!) {
          const from = Math.max(start, rowStart + x0 * pixelBytes);
          const to = Math.min(end, rowStart + x1 * pixelBytes);
          if (to > from) chunk.fill(0, from - start, to - start);
        }
      }
    }
  }
}

/**
 * The file's bytes with the regions' pixels set to 0 in every frame: the source to write the de-identified file
 * from, `writeDicom(clean, maskedSource(clean, source, regions))` (the clean file's pixel data still refers to the
 * original's bytes; a pixel value small enough to have been read inline is masked in `file` itself). Throws when
 * the file cannot be masked (check `maskProblem` first).
 */
export function maskedSource(file: DicomFile, source: ByteSource, regions: readonly MaskRegion[]): ByteSource {
  const problem = maskProblem(file);
  if (problem) throw new Error(problem);
  const layout = layoutOf(file);
  const spans = maskedSpans(layout.rows, layout.columns, regions);
  const pixel = findElement(file.dataset, Pixel.PixelData)!;
  if (pixel.value) {
    // A pixel data value small enough to have been read inline is masked in the data set itself.
    const value = pixel.value.slice();
    maskChunk(value, 0, layout, spans);
    pixel.value = value;
    return source;
  }
  return {
    size: source.size,
    async read(offset: number, length: number): Promise<Uint8Array> {
      const bytes = await source.read(offset, length);
      const from = Math.max(offset, layout.offset);
      const to = Math.min(offset + bytes.length, layout.offset + layout.length);
      if (to <= from) return bytes;
      const copy = bytes.slice();
      maskChunk(copy.subarray(from - offset, to - offset), from - layout.offset, layout, spans);
      return copy;
    },
  };
}
