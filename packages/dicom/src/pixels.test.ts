import { describe, expect, it } from 'vitest';
import {
  EXPLICIT,
  IMPLICIT,
  JPEG_BASELINE,
  hostileCt,
  part10,
  pixels,
  type Node,
  JANE_DOE,
} from '../test/syntheticDicom';
import { bytesSource } from './byteSource';
import { defaultWindow, frameProblem, readFrame, thumbnailOf, windowValue } from './pixels';
import { readDicom } from './reader';

const patient = JANE_DOE;

/** hostileCt with attributes put in tag order (the encoder writes them as listed). */
function withAttributes(nodes: Node[], extra: Node[]): Node[] {
  return [...nodes.filter((n) => !extra.some((e) => e.tag === n.tag)), ...extra].sort((a, b) => a.tag - b.tag);
}

const u16 = (v: number) => new Uint8Array([v & 0xff, (v >> 8) & 0xff]);

describe('the first frame of a file', () => {
  it.each([
    ['Explicit', EXPLICIT],
    ['Implicit', IMPLICIT],
  ])('reads unsigned 16-bit pixels with the rescale applied (%s VR)', async (_name, transferSyntax) => {
    const nodes = withAttributes(hostileCt(patient, 3, 5), [
      { tag: 0x00281050, vr: 'DS', text: '40' },
      { tag: 0x00281051, vr: 'DS', text: '400' },
      { tag: 0x00281052, vr: 'DS', text: '-1024' },
      { tag: 0x00281053, vr: 'DS', text: '2' },
      { tag: 0x00200032, vr: 'DS', text: '-10\\20.5\\-300' },
      { tag: 0x00280030, vr: 'DS', text: '0.7\\0.8' },
    ]);
    const bytes = part10(nodes, { transferSyntax });
    const file = await readDicom(bytesSource(bytes));
    const frame = await readFrame(file, bytesSource(bytes));
    const raw = pixels(3, 5);
    const expected = Array.from({ length: 15 }, (_, i) => (raw[2 * i]! + 256 * raw[2 * i + 1]!) * 2 - 1024);
    expect(frame?.rows).toBe(3);
    expect(frame?.columns).toBe(5);
    expect(Array.from(frame!.values)).toEqual(expected);
    expect(frame?.window).toEqual({ center: 40, width: 400 });
    expect(frame?.position).toEqual([-10, 20.5, -300]);
    expect(frame?.spacing).toEqual([0.7, 0.8]);
  });

  it('reads signed pixels, and pixel data left in the source (a large image) by its range', async () => {
    const rows = 200;
    const columns = 200;
    const data = new Uint8Array(rows * columns * 2);
    for (let i = 0; i < rows * columns; i++) data.set(u16((i % 3 === 0 ? -1000 : 300 + (i % 50)) & 0xffff), 2 * i);
    const nodes = withAttributes(hostileCt(patient, rows, columns), [
      { tag: 0x00280103, vr: 'US', bytes: u16(1) },
      { tag: 0x7fe00010, vr: 'OW', bytes: data },
    ]);
    const bytes = part10(nodes);
    const file = await readDicom(bytesSource(bytes));
    expect(file.dataset.find((e) => e.tag === 0x7fe00010)?.bulk).toBeDefined();
    const frame = await readFrame(file, bytesSource(bytes));
    expect(frame?.values[0]).toBe(-1000);
    expect(frame?.values[1]).toBe(301);
    expect(frame?.window).toBeNull();
    expect(defaultWindow(frame!)).toEqual({ center: (-1000 + 349) / 2, width: 349 + 1000 });
  });

  it('has none for compressed pixel data, and says why', async () => {
    const nodes = withAttributes(hostileCt(patient), [
      { tag: 0x7fe00010, vr: 'OB', fragments: [new Uint8Array(0), new Uint8Array([0xff, 0xd8, 0xff, 0xd9])] },
    ]);
    const bytes = part10(nodes, { transferSyntax: JPEG_BASELINE });
    const file = await readDicom(bytesSource(bytes));
    expect(frameProblem(file)).toBe('compressed pixel data cannot be shown');
    expect(await readFrame(file, bytesSource(bytes))).toBeNull();
  });
});

describe('windowing (PS3.3 C.11.2.1.2.1, linear) and thumbnails', () => {
  it('maps the window edges to black and white and its centre to mid grey', () => {
    // Center 40, width 400: at or below −160 black, above 239 white.
    expect(windowValue(-160, 40, 400)).toBe(0);
    expect(windowValue(-1000, 40, 400)).toBe(0);
    expect(windowValue(239.5, 40, 400)).toBe(255);
    expect(windowValue(39.5, 40, 400)).toBe(128);
    expect(windowValue(0, 0.5, 1)).toBe(0);
    expect(windowValue(1, 0.5, 1)).toBe(255);
  });

  it('shrinks a frame to at most 64 pixels on its longer side, keeping its proportions', () => {
    const values = new Float32Array(64 * 128).map((_, i) => i % 128);
    const thumbnail = thumbnailOf({
      rows: 64,
      columns: 128,
      values,
      window: null,
      inverted: false,
      position: null,
      spacing: null,
    });
    expect([thumbnail.width, thumbnail.height]).toEqual([64, 32]);
    expect(thumbnail.pixels[0]).toBe(0);
    expect(thumbnail.pixels[63]).toBeGreaterThan(250);
  });
});
