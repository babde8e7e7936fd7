import { LONG_VRS } from './dictionary';
import { Tag } from './tags';
import type { ByteRange, ByteSource, DicomDataset, DicomElement, DicomFile } from './types';

const FLUSH_AT = 1 << 20;
const COPY_CHUNK = 4 << 20;

/** Appends little-endian fields to a growing buffer. */
class ByteWriter {
  private buf = new Uint8Array(64 * 1024);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u16(v: number): void {
    this.grow(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }

  u32(v: number): void {
    this.grow(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  tag(tag: number): void {
    this.u16(tag >>> 16);
    this.u16(tag & 0xffff);
  }

  ascii(text: string): void {
    this.grow(text.length);
    for (let i = 0; i < text.length; i += 1) this.buf[this.length + i] = text.charCodeAt(i);
    this.length += text.length;
  }

  bytes(b: Uint8Array): void {
    this.grow(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Hands the bytes written so far over and starts again. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

type Part = Uint8Array | ByteRange;

/**
 * Writes a DICOM Part 10 file: a zero preamble (whatever the input's held), "DICM", the file meta information with
 * its group length recomputed, then the data set in the file's transfer syntax. Sequences and items are written
 * with undefined length. Large values are copied from the source range by range, so the output is produced as a
 * stream of chunks and never held whole.
 */
export async function* writeDicom(file: DicomFile, source?: ByteSource): AsyncGenerator<Uint8Array> {
  const out = new ByteWriter();
  out.bytes(new Uint8Array(128));
  out.ascii('DICM');
  const meta = new ByteWriter();
  for (const element of file.meta) {
    if (element.tag !== Tag.FileMetaInformationGroupLength) writeInline(meta, element, true);
  }
  const metaBytes = meta.take();
  out.tag(Tag.FileMetaInformationGroupLength);
  out.ascii('UL');
  out.u16(4);
  out.u32(metaBytes.length);
  out.bytes(metaBytes);
  for (const part of serialise(file.dataset, file.explicitVr, out)) {
    if (part instanceof Uint8Array) {
      yield part;
      continue;
    }
    if (!source) throw new Error('writeDicom: the data set refers to bytes of a source, and no source was given.');
    for (let at = 0; at < part.length; at += COPY_CHUNK) {
      yield await source.read(part.offset + at, Math.min(COPY_CHUNK, part.length - at));
    }
  }
  if (out.length > 0) yield out.take();
}

/** The whole output in memory: for small files and tests. */
export async function writeDicomBytes(file: DicomFile, source?: ByteSource): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of writeDicom(file, source)) chunks.push(chunk);
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function* serialise(dataset: DicomDataset, explicit: boolean, out: ByteWriter): Generator<Part> {
  for (const element of dataset) {
    if (element.items) {
      header(out, element.tag, 'SQ', 0xffffffff, explicit);
      for (const item of element.items) {
        out.tag(Tag.Item);
        out.u32(0xffffffff);
        yield* serialise(item, explicit, out);
        out.tag(Tag.ItemDelimitation);
        out.u32(0);
      }
      out.tag(Tag.SequenceDelimitation);
      out.u32(0);
    } else if (element.fragments) {
      header(out, element.tag, element.vr, 0xffffffff, explicit);
      for (const fragment of element.fragments) {
        out.tag(Tag.Item);
        out.u32(fragment.length);
        yield out.take();
        yield fragment;
      }
      out.tag(Tag.SequenceDelimitation);
      out.u32(0);
    } else if (element.bulk) {
      header(out, element.tag, element.vr, element.bulk.length, explicit);
      yield out.take();
      yield element.bulk;
    } else {
      writeInline(out, element, explicit);
    }
    if (out.length >= FLUSH_AT) yield out.take();
  }
}

function writeInline(out: ByteWriter, element: DicomElement, explicit: boolean): void {
  const value = element.value ?? new Uint8Array(0);
  header(out, element.tag, element.vr, value.length, explicit);
  out.bytes(value);
}

function header(out: ByteWriter, tag: number, vr: string, length: number, explicit: boolean): void {
  out.tag(tag);
  if (!explicit) {
    out.u32(length);
    return;
  }
  // A value too long for a 16-bit length field (possible for UN read from Implicit VR) goes out as UN.
  const longForm = LONG_VRS.has(vr) || length > 0xffff;
  out.ascii(longForm && !LONG_VRS.has(vr) ? 'UN' : vr);
  if (longForm) {
    out.u16(0);
    out.u32(length);
  } else {
    out.u16(length);
  }
}
