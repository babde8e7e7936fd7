import { zlibSync } from 'fflate';

/**
 * PNG (8-bit RGBA, non-interlaced) of straight-alpha pixels, row after row. Each row uses the Sub filter (the
 * difference to the pixel on its left), which turns the flat shading and the empty background of a preview into
 * long runs that deflate well. Deflate comes from fflate (pure JS), so this runs in the browser too.
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError('PNG: width and height must be positive integers');
  }
  if (rgba.length !== width * height * 4) throw new RangeError('PNG: expected width × height × 4 bytes');
  const stride = width * 4;
  const filtered = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const out = y * (stride + 1);
    filtered[out] = 1; // filter type Sub
    for (let i = 0; i < stride; i++) {
      const left = i >= 4 ? (rgba[row + i - 4] as number) : 0;
      filtered[out + 1 + i] = ((rgba[row + i] as number) - left) & 0xff;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, adaptive filtering, no interlace
  const chunks = [
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(filtered, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(8 + chunks.reduce((n, c) => n + c.length, 0));
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  let offset = 8;
  for (const c of chunks) {
    png.set(c, offset);
    offset += c.length;
  }
  return png;
}

/** One PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | null = null;

/** CRC-32 (ISO 3309, as PNG specifies), table built on first use. */
export function crc32(bytes: Uint8Array): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
