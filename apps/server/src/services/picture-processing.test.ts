import { crc32 } from 'node:zlib';
import { pictureMaxBytes, pictureTooBigMessage, pictureTypeMessage } from '@insilico/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testPicture } from '../../test/helpers/pictures';
import { ServiceError } from './errors';
import { pictureDecoding, pictureMaxSidePx, processPicture, thumbnailSidePx } from './picture-processing';

async function refusal(upload: Uint8Array): Promise<ServiceError> {
  const error = await processPicture(upload).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('processPicture', () => {
  it('re-encodes a JPEG and makes a square thumbnail', async () => {
    const result = await processPicture(await testPicture('jpeg', 640, 480));
    expect(result.format).toBe('jpeg');
    expect(result.contentType).toBe('image/jpeg');
    expect(result.full).toMatchObject({ width: 640, height: 480 });
    expect(result.thumbnail).toMatchObject({ width: thumbnailSidePx, height: thumbnailSidePx });
    expect((await sharp(result.full.bytes).metadata()).format).toBe('jpeg');
    expect(await sharp(result.thumbnail.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });
  });

  it('keeps a PNG a PNG (transparency survives) and caps the long side', async () => {
    const wide = await sharp({
      create: { width: 2600, height: 650, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const result = await processPicture(wide);
    expect(result.contentType).toBe('image/png');
    expect(result.full).toMatchObject({ width: pictureMaxSidePx, height: 512 });
    const stored = await sharp(result.full.bytes).metadata();
    expect(stored).toMatchObject({ format: 'png', width: 2048, height: 512, hasAlpha: true });
  });

  it('judges by content: a PNG named .jpg is accepted as a PNG', async () => {
    // The server never sees a name; what a browser calls "photo.jpg" arrives as these bytes.
    const renamed = new File([new Uint8Array(await testPicture('png', 100, 80))], 'photo.jpg', { type: 'image/jpeg' });
    const result = await processPicture(new Uint8Array(await renamed.arrayBuffer()));
    expect(result.format).toBe('png');
    expect(result.full).toMatchObject({ width: 100, height: 80 });
  });

  it('refuses a text file named .png with the spec message (415)', async () => {
    const text = new File(['This is not a picture, just text.\n'], 'notes.png', { type: 'image/png' });
    const error = await refusal(new Uint8Array(await text.arrayBuffer()));
    expect(error).toMatchObject({ status: 415, code: 'picture_type', message: pictureTypeMessage });
  });

  it('refuses other image formats (GIF, WebP) as not jpg/png', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .webp()
      .toBuffer();
    expect(await refusal(gif)).toMatchObject({ status: 415, message: pictureTypeMessage });
    expect(await refusal(webp)).toMatchObject({ status: 415, message: pictureTypeMessage });
  });

  it('refuses a JPEG signature glued to something that is not a JPEG', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await testPicture('png', 20, 20)]);
    const error = await refusal(fake);
    expect([415, 422]).toContain(error.status);
  });

  it('refuses a truncated JPEG (422, damaged)', async () => {
    const whole = await testPicture('jpeg', 400, 300);
    const error = await refusal(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(error).toMatchObject({ status: 422, code: 'picture_unreadable' });
    expect(error.message).toContain(pictureTypeMessage);
  });

  it('refuses a truncated PNG (422, damaged)', async () => {
    const whole = await testPicture('png', 400, 300);
    const error = await refusal(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(error).toMatchObject({ status: 422, code: 'picture_unreadable' });
  });

  it('refuses a file over 5120 KB with the spec message (413), and accepts exactly 5120 KB', async () => {
    const jpeg = await testPicture('jpeg', 64, 64);
    // A valid JPEG followed by padding: decoders stop at the end-of-image marker.
    const padded = (bytes: number) => Buffer.concat([jpeg, Buffer.alloc(bytes - jpeg.length)]);
    expect(await refusal(padded(pictureMaxBytes + 1))).toMatchObject({
      status: 413,
      code: 'picture_too_big',
      message: pictureTooBigMessage,
    });
    expect((await processPicture(padded(pictureMaxBytes))).full).toMatchObject({ width: 64, height: 64 });
  });

  it('refuses a picture declaring more pixels than it may decode (a decompression bomb)', async () => {
    // A small PNG whose header claims 12,000 × 9,000 pixels (the IHDR chunk, CRC fixed).
    const png = Buffer.from(await testPicture('png', 1, 1));
    png.writeUInt32BE(12_000, 16);
    png.writeUInt32BE(9_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    expect(await refusal(png)).toMatchObject({ status: 422, code: 'picture_too_many_pixels' });
  });

  it('refuses a real picture over 40 megapixels from its header, before decoding it', async () => {
    // 8000 × 5001 of one colour: a 0.5 MB PNG whose decoding would take 160 MB.
    const png = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const error = await refusal(png);
    expect(error).toMatchObject({ status: 422, code: 'picture_too_many_pixels' });
    expect(error.message).toBe(
      'This picture has too many pixels (more than 40 megapixels). Please upload a smaller one.',
    );
    expect(pictureDecoding.active).toBe(0);
  });

  it('decodes at most two pictures at once; the next waits for a place', async () => {
    const jpeg = await testPicture('jpeg', 64, 48);
    await pictureDecoding.acquire();
    await pictureDecoding.acquire();
    let done = false;
    const waiting = processPicture(jpeg).then((result) => {
      done = true;
      return result;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(done).toBe(false);
      expect(pictureDecoding.queued).toBe(1);
    } finally {
      pictureDecoding.release();
      pictureDecoding.release();
    }
    expect((await waiting).full).toMatchObject({ width: 64, height: 48 });
    expect(pictureDecoding.active).toBe(0);
  });

  it('strips EXIF (incl. GPS), ICC and XMP, and turns the picture upright by its orientation', async () => {
    // 300 × 200 stored sideways: orientation 6 means "rotate 90° clockwise to view".
    const tagged = await sharp(await testPicture('jpeg', 300, 200))
      .withExif({
        IFD0: { Make: 'Phone', Model: 'Camera', Copyright: 'Someone' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 34/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')
      .jpeg()
      .toBuffer();
    const before = await sharp(tagged).metadata();
    expect(before.exif).toBeDefined();
    expect(before.exif!.toString('latin1')).toContain('Camera');
    expect(before.orientation).toBe(6);
    expect(before.xmp).toBeDefined();

    const result = await processPicture(tagged);
    for (const stored of [result.full.bytes, result.thumbnail.bytes]) {
      const after = await sharp(stored).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.iptc).toBeUndefined();
      expect(after.icc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(stored.includes(Buffer.from('Camera'))).toBe(false);
      expect(stored.includes(Buffer.from('GPS'))).toBe(false);
    }
    expect(result.full).toMatchObject({ width: 200, height: 300 });
  });

  it('drops PNG text chunks', async () => {
    const withText = await sharp(await testPicture('png', 50, 50))
      .withMetadata()
      .withExif({ IFD0: { Artist: 'Secret Artist' } })
      .png()
      .toBuffer();
    expect(withText.includes(Buffer.from('Secret Artist'))).toBe(true);
    const result = await processPicture(withText);
    expect(result.full.bytes.includes(Buffer.from('Secret Artist'))).toBe(false);
    expect((await sharp(result.full.bytes).metadata()).exif).toBeUndefined();
  });

  it('refuses an empty upload as not a picture', async () => {
    expect(await refusal(new Uint8Array(0))).toMatchObject({ status: 415, message: pictureTypeMessage });
  });
});
