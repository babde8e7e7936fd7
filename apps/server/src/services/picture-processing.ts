import {
  pictureErrorCodes,
  pictureProblem,
  pictureSignatureBytes,
  pictureTypeMessage,
  sniffPictureFormat,
  type PictureFormat,
} from '@insilico/contracts';
import sharp, { type Sharp } from 'sharp';
import { Semaphore } from '../lib/semaphore';
import { ServiceError } from './errors';

/** Long side of a stored picture in pixels; larger pictures are scaled down (docs/decisions/pictures.md). */
export const pictureMaxSidePx = 2048;
/** Side of the square thumbnail in pixels (cover crop, centred). */
export const thumbnailSidePx = 256;
/**
 * Pictures with more pixels than this are refused from their header, before decoding: a 389 kB PNG of
 * one colour can declare 100 megapixels and takes seconds and hundreds of MB to decode. 40 MP is more
 * than a camera photo that fits in 5120 KB.
 */
export const pictureMaxInputPixels = 40_000_000;
/**
 * Pictures decoded at once by this process; the others wait their turn. A decode at the pixel limit
 * holds about 160 MB (4 bytes a pixel) while it runs: a burst of uploads queues instead of adding that
 * per request (docs/decisions/pictures.md).
 */
export const pictureDecoding = new Semaphore(2);

const contentTypes: Record<PictureFormat, 'image/jpeg' | 'image/png'> = { jpeg: 'image/jpeg', png: 'image/png' };
export const pictureExtensions: Record<PictureFormat, 'jpg' | 'png'> = { jpeg: 'jpg', png: 'png' };

export interface EncodedImage {
  bytes: Buffer;
  /** Pixels. */
  width: number;
  height: number;
}

/** A picture as stored: re-encoded without metadata, upright, capped in size, with its thumbnail. */
export interface ProcessedPicture {
  format: PictureFormat;
  contentType: 'image/jpeg' | 'image/png';
  full: EncodedImage;
  thumbnail: EncodedImage;
}

const unreadable = () =>
  new ServiceError(
    422,
    pictureErrorCodes.unreadable,
    'This picture could not be read; the file may be damaged. Upload one of these image types: jpg, jpeg, png',
  );

/**
 * Checks an uploaded picture by its bytes and re-encodes it. Refuses (spec §5 messages) a file over
 * 5120 KB (413) and anything that is not JPEG or PNG by its signature and decoder (415), whatever its
 * name or declared type; a damaged file answers 422. The stored picture is decoded and encoded again
 * (nothing of the upload's bytes survives), turned upright by its EXIF orientation, stripped of every
 * metadata block (EXIF incl. GPS, XMP, IPTC, ICC after conversion to sRGB, PNG text chunks), and at
 * most `pictureMaxSidePx` on its long side.
 */
export async function processPicture(upload: Uint8Array): Promise<ProcessedPicture> {
  const problem = pictureProblem(upload.length, upload.subarray(0, pictureSignatureBytes));
  if (problem)
    throw new ServiceError(problem.code === pictureErrorCodes.tooBig ? 413 : 415, problem.code, problem.message);
  const format = sniffPictureFormat(upload)!;

  // failOn 'warning': a cut-off or corrupt file is refused rather than stored half grey.
  const input = sharp(upload, { failOn: 'warning', limitInputPixels: pictureMaxInputPixels });
  let declared: sharp.Metadata;
  try {
    declared = await input.metadata();
  } catch (error) {
    throw refusalOf(error);
  }
  // The signature and the decoder must agree (a JPEG header glued to something else is not a JPEG).
  if (declared.format !== format) throw new ServiceError(415, pictureErrorCodes.type, pictureTypeMessage);
  // The header's size decides before any pixel is decoded (limitInputPixels stays as the decoder's own guard).
  if (!declared.width || !declared.height) throw unreadable();
  if (declared.width * declared.height > pictureMaxInputPixels) throw tooManyPixels();

  const upright = input.clone().rotate().toColourspace('srgb');
  try {
    return await pictureDecoding.run(() => encodeBoth(upright, format));
  } catch (error) {
    throw refusalOf(error);
  }
}

/** Decodes the picture once (scaled to its stored size) and encodes both sizes from that. */
async function encodeBoth(upright: Sharp, format: PictureFormat): Promise<ProcessedPicture> {
  const scaled = await upright
    .resize({ width: pictureMaxSidePx, height: pictureMaxSidePx, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = scaled.info;
  const pixels = () => sharp(scaled.data, { raw: { width, height, channels } });
  const [full, thumbnail] = await Promise.all([
    encode(pixels(), format),
    encode(
      pixels().resize({ width: thumbnailSidePx, height: thumbnailSidePx, fit: 'cover', position: 'centre' }),
      format,
    ),
  ]);
  return { format, contentType: contentTypes[format], full, thumbnail };
}

async function encode(pipeline: Sharp, format: PictureFormat): Promise<EncodedImage> {
  const encoder = format === 'jpeg' ? pipeline.jpeg({ quality: 85 }) : pipeline.png({ adaptiveFiltering: true });
  const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

const tooManyPixels = () =>
  new ServiceError(
    422,
    pictureErrorCodes.tooManyPixels,
    `This picture has too many pixels (more than ${pictureMaxInputPixels / 1_000_000} megapixels). Please upload a smaller one.`,
  );

function refusalOf(error: unknown): ServiceError {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return tooManyPixels();
  if (/unsupported image format/i.test(message))
    return new ServiceError(415, pictureErrorCodes.type, pictureTypeMessage);
  return unreadable();
}
