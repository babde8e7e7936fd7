import { describe, expect, it } from 'vitest';
import { pictureMaxBytes, pictureTooBigMessage, pictureTypeMessage } from '@insilico/contracts';
import { pictureAtSize, pictureFileProblem } from './pictureFile';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpegStart = [0xff, 0xd8, 0xff, 0xe0];

function file(bytes: number[], name: string, type: string, size = bytes.length): File {
  const content = new Uint8Array(size);
  content.set(bytes);
  return new File([content], name, { type });
}

describe('pictureFileProblem', () => {
  it('accepts JPEG and PNG by their bytes, whatever the name and declared type', async () => {
    expect(await pictureFileProblem(file(jpegStart, 'photo.jpg', 'image/jpeg', 100))).toBeNull();
    expect(await pictureFileProblem(file(pngSignature, 'photo.jpg', 'image/jpeg', 100))).toBeNull();
    expect(await pictureFileProblem(file(pngSignature, 'no-extension', '', 100))).toBeNull();
  });

  it('refuses anything else with the spec message, even named .png', async () => {
    const text = new File(['hello, not a picture'], 'notes.png', { type: 'image/png' });
    expect(await pictureFileProblem(text)).toBe(pictureTypeMessage);
    expect(await pictureFileProblem(file([0x47, 0x49, 0x46, 0x38], 'anim.gif', 'image/gif', 50))).toBe(
      pictureTypeMessage,
    );
    expect(await pictureFileProblem(new File([], 'empty.jpg', { type: 'image/jpeg' }))).toBe(pictureTypeMessage);
  });

  it('refuses more than 5120 KB with the spec message; exactly 5120 KB is fine', async () => {
    expect(await pictureFileProblem(file(jpegStart, 'big.jpg', 'image/jpeg', pictureMaxBytes + 1))).toBe(
      pictureTooBigMessage,
    );
    expect(await pictureFileProblem(file(jpegStart, 'limit.jpg', 'image/jpeg', pictureMaxBytes))).toBeNull();
  });
});

describe('pictureAtSize', () => {
  it('sets the size, keeping the version', () => {
    expect(pictureAtSize('/api/devices/d1/picture?v=f1', 'thumb')).toBe('/api/devices/d1/picture?v=f1&size=thumb');
    expect(pictureAtSize('/api/users/u1/picture?size=thumb&v=f2', 'full')).toBe('/api/users/u1/picture?size=full&v=f2');
  });
});
