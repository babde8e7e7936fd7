import { TransferSyntax } from './tags';
import type { ByteSource, DicomDataset, DicomFile } from './types';
import { findElement, stringOf, uint16Of } from './values';

/**
 * The first frame of a file's pixels as numbers (thumbnails in the upload's tree, issue 19 item 1; the slice
 * viewer, item 8). Native (uncompressed) little-endian pixel data only: monochrome of 8 or 16 bits, signed or not,
 * with the Modality LUT's rescale applied (Hounsfield units for CT), or RGB of 8 bits as luminance. Compressed
 * transfer syntaxes answer null (no decoder in the browser; the files are uploaded as they are).
 */
export interface Frame {
  rows: number;
  columns: number;
  /** row by row, rows × columns values after rescale */
  values: Float32Array;
  /** the file's own window, if it names one */
  window: { center: number; width: number } | null;
  /** MONOCHROME1 shows high values dark */
  inverted: boolean;
  /** Image Position (Patient), mm, if present */
  position: [number, number, number] | null;
  /** Pixel Spacing (row, column), mm, if present */
  spacing: [number, number] | null;
}

const PixelTag = {
  SamplesPerPixel: 0x00280002,
  PhotometricInterpretation: 0x00280004,
  PlanarConfiguration: 0x00280006,
  Rows: 0x00280010,
  Columns: 0x00280011,
  PixelSpacing: 0x00280030,
  BitsAllocated: 0x00280100,
  PixelRepresentation: 0x00280103,
  WindowCenter: 0x00281050,
  WindowWidth: 0x00281051,
  RescaleIntercept: 0x00281052,
  RescaleSlope: 0x00281053,
  ImagePositionPatient: 0x00200032,
  PixelData: 0x7fe00010,
} as const;

const numbers = (dataset: DicomDataset, tag: number): number[] =>
  stringOf(dataset, tag)
    .split('\\')
    .map((part) => Number.parseFloat(part))
    .filter((n) => Number.isFinite(n));

/** Why a file has no frame to show, or null when it has one. */
export function frameProblem(file: DicomFile): string | null {
  const { dataset } = file;
  if (
    file.transferSyntaxUid !== TransferSyntax.ExplicitVrLittleEndian &&
    file.transferSyntaxUid !== TransferSyntax.ImplicitVrLittleEndian
  )
    return 'compressed pixel data cannot be shown';
  const pixel = findElement(dataset, PixelTag.PixelData);
  if (!pixel || pixel.fragments) return 'no pixel data';
  const samples = uint16Of(dataset, PixelTag.SamplesPerPixel) ?? 1;
  const bits = uint16Of(dataset, PixelTag.BitsAllocated) ?? 0;
  if (!((samples === 1 && (bits === 8 || bits === 16)) || (samples === 3 && bits === 8)))
    return `${samples} samples of ${bits} bits cannot be shown`;
  if (!(uint16Of(dataset, PixelTag.Rows) ?? 0) || !(uint16Of(dataset, PixelTag.Columns) ?? 0)) return 'no image size';
  return null;
}

/** The first frame, or null when it cannot be shown (see frameProblem) or the file is shorter than it says. */
export async function readFrame(file: DicomFile, source: ByteSource): Promise<Frame | null> {
  if (frameProblem(file)) return null;
  const { dataset } = file;
  const rows = uint16Of(dataset, PixelTag.Rows)!;
  const columns = uint16Of(dataset, PixelTag.Columns)!;
  const samples = uint16Of(dataset, PixelTag.SamplesPerPixel) ?? 1;
  const bits = uint16Of(dataset, PixelTag.BitsAllocated)!;
  const signed = uint16Of(dataset, PixelTag.PixelRepresentation) === 1;
  const count = rows * columns;
  const length = count * samples * (bits / 8);
  const pixel = findElement(dataset, PixelTag.PixelData)!;
  let bytes: Uint8Array;
  if (pixel.value) bytes = pixel.value;
  else if (pixel.bulk) bytes = await source.read(pixel.bulk.offset, Math.min(length, pixel.bulk.length));
  else return null;
  if (bytes.length < length) return null;

  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const slope = numbers(dataset, PixelTag.RescaleSlope)[0] ?? 1;
  const intercept = numbers(dataset, PixelTag.RescaleIntercept)[0] ?? 0;
  const values = new Float32Array(count);
  if (samples === 3) {
    const planar = uint16Of(dataset, PixelTag.PlanarConfiguration) === 1;
    for (let i = 0; i < count; i++) {
      const [r, g, b] = planar
        ? [bytes[i]!, bytes[count + i]!, bytes[2 * count + i]!]
        : [bytes[3 * i]!, bytes[3 * i + 1]!, bytes[3 * i + 2]!];
      values[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    }
  } else {
    for (let i = 0; i < count; i++) {
      const raw =
        bits === 8
          ? signed
            ? view.getInt8(i)
            : view.getUint8(i)
          : signed
            ? view.getInt16(2 * i, true)
            : view.getUint16(2 * i, true);
      values[i] = raw * slope + intercept;
    }
  }
  const center = numbers(dataset, PixelTag.WindowCenter)[0];
  const width = numbers(dataset, PixelTag.WindowWidth)[0];
  const position = numbers(dataset, PixelTag.ImagePositionPatient);
  const spacing = numbers(dataset, PixelTag.PixelSpacing);
  return {
    rows,
    columns,
    values,
    window: center !== undefined && width !== undefined && width > 0 ? { center, width } : null,
    inverted: stringOf(dataset, PixelTag.PhotometricInterpretation) === 'MONOCHROME1',
    position: position.length === 3 ? [position[0]!, position[1]!, position[2]!] : null,
    spacing: spacing.length === 2 ? [spacing[0]!, spacing[1]!] : null,
  };
}

/** The window a frame is shown with when none is chosen: its own, else its range of values. */
export function defaultWindow(frame: Frame): { center: number; width: number } {
  if (frame.window) return frame.window;
  let min = Infinity;
  let max = -Infinity;
  for (const v of frame.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isFinite(min)) return { center: 0, width: 1 };
  return { center: (min + max) / 2, width: Math.max(1, max - min) };
}

/**
 * DICOM PS3.3 C.11.2.1.2.1 (linear VOI): values at or below center − 0.5 − (width − 1)/2 are 0, at or above
 * center − 0.5 + (width − 1)/2 are 255, linear between.
 */
export function windowValue(value: number, center: number, width: number): number {
  const w = Math.max(1, width);
  const low = center - 0.5 - (w - 1) / 2;
  const high = center - 0.5 + (w - 1) / 2;
  if (value <= low) return 0;
  if (value > high) return 255;
  return Math.round(((value - (center - 0.5)) / (w - 1) + 0.5) * 255);
}

/** A small 8-bit greyscale picture of a frame (nearest neighbour, at most `size` on its longer side). */
export function thumbnailOf(frame: Frame, size = 64): { width: number; height: number; pixels: Uint8Array } {
  const scale = Math.min(1, size / Math.max(frame.rows, frame.columns));
  const width = Math.max(1, Math.round(frame.columns * scale));
  const height = Math.max(1, Math.round(frame.rows * scale));
  const { center, width: windowWidth } = defaultWindow(frame);
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(frame.rows - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x++) {
      const column = Math.min(frame.columns - 1, Math.floor(x / scale));
      const grey = windowValue(frame.values[row * frame.columns + column]!, center, windowWidth);
      pixels[y * width + x] = frame.inverted ? 255 - grey : grey;
    }
  }
  return { width, height, pixels };
}
