import { Readable } from 'node:stream';
import { pictureTooBigMessage } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { readUpload } from './picture-upload';

function chunked(sizes: number[]): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const chunks = sizes.map((size) => Buffer.alloc(size, 1));
  const stream = new Readable({
    read() {
      const next = chunks.shift();
      if (next) pulled += 1;
      this.push(next ?? null);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('readUpload', () => {
  it('reads a body up to and including the limit', async () => {
    const { stream } = chunked([4, 4, 2]);
    expect((await readUpload(stream, undefined, 10)).length).toBe(10);
  });

  it('refuses a declared length over the limit before reading anything', async () => {
    const { stream, pulled } = chunked([4]);
    await expect(readUpload(stream, 11, 10)).rejects.toMatchObject({ status: 413, message: pictureTooBigMessage });
    expect(pulled()).toBe(0);
  });

  it('refuses a body that streams past the limit, without keeping what came after', async () => {
    const { stream } = chunked([6, 6, 6, 6]);
    await expect(readUpload(stream, undefined, 10)).rejects.toMatchObject({ status: 413, code: 'picture_too_big' });
  });

  it('refuses a body longer than it declared', async () => {
    const { stream } = chunked([8, 8]);
    await expect(readUpload(stream, 8, 10)).rejects.toMatchObject({ status: 413 });
  });

  it('passes on a stream error', async () => {
    const stream = new Readable({
      read() {
        this.destroy(new Error('aborted'));
      },
    });
    await expect(readUpload(stream, undefined, 10)).rejects.toThrow('aborted');
  });
});
