import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodePng, meshPreviewPng, renderMeshPreview, writeBinaryStl, readStl } from './index';
import { crc32 } from './pngEncode';
import { flipped } from '../test/stlCorpus';
import { cube, ellipsoid } from '../test/shapes';

/** Decodes an 8-bit RGBA PNG written by encodePng (Sub or None filters), checking every chunk's CRC. */
function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let o = 8;
  let width = 0;
  let height = 0;
  const idat: number[] = [];
  const types: string[] = [];
  while (o < png.length) {
    const length = view.getUint32(o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    expect(view.getUint32(o + 8 + length)).toBe(crc32(png.subarray(o + 4, o + 8 + length)));
    if (type === 'IHDR') {
      width = view.getUint32(o + 8);
      height = view.getUint32(o + 12);
      expect([...png.subarray(o + 16, o + 21)]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(...png.subarray(o + 8, o + 8 + length));
    types.push(type);
    o += 12 + length;
  }
  expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
  const raw = unzlibSync(Uint8Array.from(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width * 4 + 1)];
    for (let i = 0; i < width * 4; i++) {
      const value = raw[y * (width * 4 + 1) + 1 + i] as number;
      const left = filter === 1 && i >= 4 ? (rgba[y * width * 4 + i - 4] as number) : 0;
      rgba[y * width * 4 + i] = (value + left) & 0xff;
    }
  }
  return { width, height, rgba };
}

const pixel = (image: { width: number; rgba: Uint8Array }, x: number, y: number): number[] => [
  ...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4),
];

describe('preview image', () => {
  it('CRC-32 matches the PNG specification value of the IEND chunk', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });

  it('encodes RGBA losslessly as PNG', () => {
    const rgba = Uint8Array.from({ length: 5 * 3 * 4 }, (_, i) => (i * 37) & 0xff);
    expect(decodePng(encodePng(rgba, 5, 3))).toEqual({ width: 5, height: 3, rgba });
    expect(() => encodePng(rgba, 4, 3)).toThrow(RangeError);
  });

  it('renders a sphere: opaque shaded centre, transparent corners, round silhouette, deterministic bytes', () => {
    const sphere = readStl(writeBinaryStl(ellipsoid(20, 20, 20, 32, 64)));
    const png = meshPreviewPng(sphere);
    expect(Buffer.from(meshPreviewPng(sphere)).equals(Buffer.from(png))).toBe(true);
    const image = decodePng(png);
    expect(image.width).toBe(256);
    expect(pixel(image, 128, 128)[3]).toBe(255);
    expect(pixel(image, 2, 2)).toEqual([0, 0, 0, 0]);
    expect(pixel(image, 253, 253)).toEqual([0, 0, 0, 0]);
    // The silhouette of a sphere is a disc filling the image up to the 6 % margin: ≈ π/4 · (0.88 · 256)².
    let covered = 0;
    for (let i = 3; i < image.rgba.length; i += 4) covered += (image.rgba[i] as number) / 255;
    expect(Math.abs(covered / ((Math.PI / 4) * (0.88 * 256) ** 2) - 1)).toBeLessThan(0.02);
    // Lit from the upper left: the upper-left part of the disc is brighter than the lower right.
    expect(pixel(image, 90, 80)[0]).toBeGreaterThan(pixel(image, 170, 180)[0] as number);
  });

  it('shades flipped triangles like the others (two-sided), and renders an empty mesh as transparent', () => {
    const c = cube(10);
    const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
    expect(same(renderMeshPreview(flipped(c), { size: 64 }).rgba, renderMeshPreview(c, { size: 64 }).rgba)).toBe(true);
    const empty = renderMeshPreview({ positions: new Float32Array(0), indices: new Uint32Array(0) }, { size: 8 });
    expect(empty.rgba.every((b) => b === 0)).toBe(true);
  });

  it('validates its options', () => {
    const c = cube(1);
    expect(() => renderMeshPreview(c, { size: 0 })).toThrow(RangeError);
    expect(() => renderMeshPreview(c, { supersample: 9 })).toThrow(RangeError);
    expect(() => renderMeshPreview(c, { viewFrom: [0, 0, 0] })).toThrow(RangeError);
    expect(renderMeshPreview(c, { size: 64, viewFrom: [0, 0, 1] }).width).toBe(64);
  });
});
