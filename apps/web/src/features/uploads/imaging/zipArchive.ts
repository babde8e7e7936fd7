import { Deflate } from 'fflate';

/**
 * The de-identified zip, written by us (APPNOTE 6.3.10): each entry is compressed whole before its local header is
 * written, so the header carries the CRC-32 and both sizes (no data descriptor) and the compressed bytes go
 * straight into the output Blob. Deflate at level 1 (fflate, synchronous, in the calling worker) and a
 * slice-by-8 CRC-32; zip64 fields only where a size or offset needs them, and always a zip64 end record, so any
 * reader finds the central directory whatever its size.
 */

const CRC_TABLES = crcTables();

function crcTables(): Uint32Array {
  const table = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    table[n] = c;
  }
  for (let n = 0; n < 256; n += 1) {
    for (let t = 1; t < 8; t += 1) {
      const previous = table[(t - 1) * 256 + n]!;
      table[t * 256 + n] = (previous >>> 8) ^ table[previous & 0xff]!;
    }
  }
  return table;
}

/** CRC-32 (ISO 3309, the zip's) of `bytes`, continuing from `crc` (0 to start): eight bytes per step. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = CRC_TABLES;
  let c = ~crc;
  let i = 0;
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (; i + 8 <= n; i += 8) {
    const a = c ^ view.getUint32(i, true);
    const b = view.getUint32(i + 4, true);
    c =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
  }
  for (; i < n; i += 1) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** An entry compressed and ready to be written: its data as deflate chunks, with what its headers say. */
export interface CompressedEntry {
  name: string;
  crc: number;
  size: number;
  compressedSize: number;
  chunks: Uint8Array[];
}

/** Deflates (level 1) an entry's content as it comes, computing its CRC-32 on the way. */
export async function compressEntry(
  name: string,
  content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<CompressedEntry> {
  const chunks: Uint8Array[] = [];
  let compressedSize = 0;
  const deflate = new Deflate({ level: 1 }, (data) => {
    chunks.push(data);
    compressedSize += data.length;
  });
  let crc = 0;
  let size = 0;
  for await (const chunk of content) {
    crc = crc32(chunk, crc);
    size += chunk.length;
    deflate.push(chunk);
  }
  deflate.push(new Uint8Array(0), true);
  return { name, crc, size, compressedSize, chunks };
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
const MAX32 = 0xffffffff;
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
const VERSION_ZIP64 = 45;
const VERSION_DEFLATE = 20;
/** Parts are gathered into a Blob at this size, so the compressed bytes leave the JavaScript heap as they come. */
const BLOB_BATCH = 8 << 20;

interface Written {
  name: Uint8Array;
  crc: number;
  size: number;
  compressedSize: number;
  offset: number;
}

/** A zip built entry by entry into a Blob (which the browser may keep on disk); `close` adds the directory. */
export class ZipArchive {
  private readonly written: Written[] = [];
  private readonly blobs: Blob[] = [];
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private offset = 0;
  private readonly time: number;
  private readonly date: number;

  constructor(
    private readonly type = 'application/zip',
    modified = new Date(),
  ) {
    this.time = (modified.getHours() << 11) | (modified.getMinutes() << 5) | (modified.getSeconds() >> 1);
    this.date =
      ((Math.max(1980, modified.getFullYear()) - 1980) << 9) | ((modified.getMonth() + 1) << 5) | modified.getDate();
  }

  add(entry: CompressedEntry): void {
    const name = new TextEncoder().encode(entry.name);
    const zip64 = entry.size >= MAX32 || entry.compressedSize >= MAX32;
    const header = new Bytes(30 + name.length + (zip64 ? 20 : 0));
    header.u32(LOCAL_HEADER);
    header.u16(zip64 ? VERSION_ZIP64 : VERSION_DEFLATE);
    header.u16(UTF8_NAMES);
    header.u16(DEFLATE);
    header.u16(this.time);
    header.u16(this.date);
    header.u32(entry.crc);
    header.u32(zip64 ? MAX32 : entry.compressedSize);
    header.u32(zip64 ? MAX32 : entry.size);
    header.u16(name.length);
    header.u16(zip64 ? 20 : 0);
    header.bytes(name);
    if (zip64) {
      header.u16(0x0001);
      header.u16(16);
      header.u64(entry.size);
      header.u64(entry.compressedSize);
    }
    this.written.push({
      name,
      crc: entry.crc,
      size: entry.size,
      compressedSize: entry.compressedSize,
      offset: this.offset,
    });
    this.push(header.array);
    for (const chunk of entry.chunks) this.push(chunk);
  }

  /** Writes the central directory and the end records; the archive is complete. */
  close(): Blob {
    const directoryOffset = this.offset;
    for (const entry of this.written) this.push(centralHeader(entry, this.time, this.date));
    const directorySize = this.offset - directoryOffset;
    const count = this.written.length;
    const zip64EndOffset = this.offset;
    const end = new Bytes(56 + 20 + 22);
    end.u32(ZIP64_END);
    end.u64(44);
    end.u16(VERSION_ZIP64);
    end.u16(VERSION_ZIP64);
    end.u32(0);
    end.u32(0);
    end.u64(count);
    end.u64(count);
    end.u64(directorySize);
    end.u64(directoryOffset);
    end.u32(ZIP64_LOCATOR);
    end.u32(0);
    end.u64(zip64EndOffset);
    end.u32(1);
    end.u32(END);
    end.u16(0);
    end.u16(0);
    end.u16(Math.min(count, 0xffff));
    end.u16(Math.min(count, 0xffff));
    end.u32(Math.min(directorySize, MAX32));
    end.u32(Math.min(directoryOffset, MAX32));
    end.u16(0);
    this.push(end.array);
    this.flush();
    return new Blob(this.blobs, { type: this.type });
  }

  private push(bytes: Uint8Array): void {
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.offset += bytes.length;
    if (this.pendingBytes >= BLOB_BATCH) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.blobs.push(new Blob(this.pending as BlobPart[]));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

function centralHeader(entry: Written, time: number, date: number): Uint8Array {
  // The zip64 extra holds, in this order, only the fields whose 32-bit slot reads 0xFFFFFFFF.
  const sizes = entry.size >= MAX32 || entry.compressedSize >= MAX32;
  const far = entry.offset >= MAX32;
  const extra = (sizes ? 16 : 0) + (far ? 8 : 0);
  const out = new Bytes(46 + entry.name.length + (extra > 0 ? 4 + extra : 0));
  out.u32(CENTRAL_HEADER);
  out.u16(VERSION_ZIP64);
  out.u16(extra > 0 ? VERSION_ZIP64 : VERSION_DEFLATE);
  out.u16(UTF8_NAMES);
  out.u16(DEFLATE);
  out.u16(time);
  out.u16(date);
  out.u32(entry.crc);
  out.u32(sizes ? MAX32 : entry.compressedSize);
  out.u32(sizes ? MAX32 : entry.size);
  out.u16(entry.name.length);
  out.u16(extra > 0 ? 4 + extra : 0);
  out.u16(0); // comment
  out.u16(0); // disk
  out.u16(0); // internal attributes
  out.u32(0); // external attributes
  out.u32(far ? MAX32 : entry.offset);
  out.bytes(entry.name);
  if (extra > 0) {
    out.u16(0x0001);
    out.u16(extra);
    if (sizes) {
      out.u64(entry.size);
      out.u64(entry.compressedSize);
    }
    if (far) out.u64(entry.offset);
  }
  return out.array;
}

/** Little-endian fields into a buffer of known size. */
class Bytes {
  readonly array: Uint8Array;
  private readonly view: DataView;
  private at = 0;

  constructor(size: number) {
    this.array = new Uint8Array(size);
    this.view = new DataView(this.array.buffer);
  }

  u16(v: number): void {
    this.view.setUint16(this.at, v, true);
    this.at += 2;
  }

  u32(v: number): void {
    this.view.setUint32(this.at, v >>> 0, true);
    this.at += 4;
  }

  u64(v: number): void {
    this.view.setBigUint64(this.at, BigInt(v), true);
    this.at += 8;
  }

  bytes(b: Uint8Array): void {
    this.array.set(b, this.at);
    this.at += b.length;
  }
}
