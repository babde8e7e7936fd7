import { ALL_VRS, LONG_VRS, dictionaryVr } from './dictionary';
import { DicomFormatError } from './errors';
import { Tag, TransferSyntax, formatTag } from './tags';
import type { ByteRange, ByteSource, DicomDataset, DicomElement, DicomFile, Vr } from './types';
import { readString } from './values';

const UNDEFINED_LENGTH = 0xffffffff;
const DEFAULT_BULK_THRESHOLD = 64 * 1024;
const WINDOW = 256 * 1024;
const MAX_DEPTH = 64;

/**
 * Reads a source by ranges: a window of bytes around the cursor, refilled as the cursor moves. Values above the
 * bulk threshold are skipped (recorded as ranges), so the memory used is the window plus the attributes, whatever
 * the file's size.
 */
class RangeReader {
  pos = 0;
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  private view: DataView = new DataView(this.buf.buffer);

  constructor(
    private readonly source: ByteSource,
    private readonly end: number,
  ) {}

  get remaining(): number {
    return this.end - this.pos;
  }

  async ensure(n: number, what: () => string): Promise<void> {
    if (this.pos >= this.bufStart && this.pos + n <= this.bufStart + this.buf.length) return;
    if (this.pos + n > this.end) throw new DicomFormatError('truncated', `The file ends inside ${what()}.`);
    const length = Math.min(Math.max(n, WINDOW), this.end - this.pos);
    const bytes = await this.source.read(this.pos, length);
    if (bytes.length < n) throw new DicomFormatError('truncated', `The file ends inside ${what()}.`);
    this.buf = bytes;
    this.bufStart = this.pos;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u16(): number {
    const v = this.view.getUint16(this.pos - this.bufStart, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    const v = this.view.getUint32(this.pos - this.bufStart, true);
    this.pos += 4;
    return v;
  }

  tag(): number {
    const group = this.u16();
    return ((group << 16) | this.u16()) >>> 0;
  }

  ascii2(): string {
    const i = this.pos - this.bufStart;
    this.pos += 2;
    return String.fromCharCode(this.buf[i] ?? 0, this.buf[i + 1] ?? 0);
  }

  /** A copy, so the window can be dropped. */
  bytes(n: number): Uint8Array {
    const i = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.slice(i, i + n);
  }

  peekU32(): number {
    return this.view.getUint32(this.pos - this.bufStart, true);
  }
}

export interface ReadOptions {
  /** values longer than this stay in the source as byte ranges (default 64 KiB) */
  bulkThreshold?: number;
}

interface Syntax {
  explicit: boolean;
  bulkThreshold: number;
}

/** Whether the bytes start like a DICOM Part 10 file: a 128-byte preamble, then "DICM". */
export function hasDicomPrefix(head: Uint8Array): boolean {
  return head.length >= 132 && head[128] === 0x44 && head[129] === 0x49 && head[130] === 0x43 && head[131] === 0x4d;
}

/**
 * Reads a DICOM Part 10 file (PS3.10 7.1): preamble, "DICM", file meta information in Explicit VR Little Endian,
 * then the data set in Implicit or Explicit VR Little Endian (uncompressed or encapsulated pixel data). Sequences
 * of defined and undefined length, at any depth. Refuses what it cannot read with a DicomFormatError.
 */
export async function readDicom(source: ByteSource, options: ReadOptions = {}): Promise<DicomFile> {
  const bulkThreshold = options.bulkThreshold ?? DEFAULT_BULK_THRESHOLD;
  if (source.size < 132 || !hasDicomPrefix(await source.read(0, 132))) {
    throw new DicomFormatError('not-dicom', 'Not a DICOM file (no "DICM" after the 128-byte preamble).');
  }
  const reader = new RangeReader(source, source.size);
  reader.pos = 132;
  const metaSyntax: Syntax = { explicit: true, bulkThreshold };
  const meta: DicomDataset = [];
  while (reader.remaining >= 4) {
    await reader.ensure(4, () => 'the file meta information');
    if ((reader.peekU32() & 0xffff) !== 0x0002) break; // the data set begins
    meta.push(await readElement(reader, metaSyntax, 0));
  }
  const tsElement = meta.find((e) => e.tag === Tag.TransferSyntaxUid);
  if (!tsElement?.value) throw new DicomFormatError('malformed', 'The file meta information names no transfer syntax.');
  const transferSyntaxUid = readString(tsElement.value);
  if (transferSyntaxUid === TransferSyntax.ExplicitVrBigEndian) {
    throw new DicomFormatError('unsupported-transfer-syntax', 'Explicit VR Big Endian (retired) is not supported.');
  }
  if (transferSyntaxUid === TransferSyntax.DeflatedExplicitVrLittleEndian) {
    throw new DicomFormatError('unsupported-transfer-syntax', 'Deflated Explicit VR Little Endian is not supported.');
  }
  if (!/^[0-9.]+$/.test(transferSyntaxUid)) {
    throw new DicomFormatError('malformed', `The transfer syntax "${transferSyntaxUid}" is not a UID.`);
  }
  // Every other standard transfer syntax (JPEG, JPEG 2000, RLE, …) is Explicit VR Little Endian with encapsulated pixel data.
  const explicit = transferSyntaxUid !== TransferSyntax.ImplicitVrLittleEndian;
  const dataset = await readItemsUntil(reader, { explicit, bulkThreshold }, source.size, false, 0);
  return { meta, dataset, transferSyntaxUid, explicitVr: explicit };
}

async function readItemsUntil(
  reader: RangeReader,
  syntax: Syntax,
  end: number,
  untilDelimiter: boolean,
  depth: number,
): Promise<DicomDataset> {
  const elements: DicomDataset = [];
  while (untilDelimiter || reader.pos < end) {
    await reader.ensure(4, () => 'an item');
    if (reader.peekU32() === 0xe00dfffe) {
      // Item Delimitation (FFFE,E00D): the end of an item of undefined length
      if (!untilDelimiter) throw new DicomFormatError('malformed', 'An item delimiter stands where no item is open.');
      await reader.ensure(8, () => 'an item delimiter');
      reader.pos += 8;
      return elements;
    }
    if (reader.pos + 8 > end && !untilDelimiter) {
      // Trailing padding shorter than an element header: tolerated at the end of the file only.
      if (depth === 0) break;
      throw new DicomFormatError('malformed', 'An item ends inside an attribute header.');
    }
    const element = await readElement(reader, syntax, depth);
    if (element.tag === 0xfffcfffc) continue; // Data Set Trailing Padding: dropped (PS3.15 Table E.1-1: X)
    elements.push(element);
  }
  if (reader.pos > end) throw new DicomFormatError('malformed', 'An attribute runs past the end of its item.');
  return elements;
}

async function readElement(reader: RangeReader, syntax: Syntax, depth: number): Promise<DicomElement> {
  if (depth > MAX_DEPTH) throw new DicomFormatError('malformed', 'Sequences are nested too deeply.');
  await reader.ensure(8, () => 'an attribute header');
  const start = reader.pos;
  const tag = reader.tag();
  let vr: Vr;
  let length: number;
  if (tag >>> 16 === 0xfffe)
    throw new DicomFormatError('malformed', `An item tag ${formatTag(tag)} stands outside a sequence.`);
  if (syntax.explicit) {
    const code = reader.ascii2();
    if (!ALL_VRS.has(code)) {
      throw new DicomFormatError(
        'malformed',
        `Attribute ${formatTag(tag)} at byte ${start} has no valid VR ("${code}").`,
      );
    }
    vr = code as Vr;
    if (LONG_VRS.has(vr)) {
      await reader.ensure(4, () => `attribute ${formatTag(tag)}`);
      reader.pos += 2;
      length = reader.u32();
    } else {
      length = reader.u16();
    }
  } else {
    vr = dictionaryVr(tag);
    length = reader.u32();
  }
  const what = (): string => `attribute ${formatTag(tag)}`;

  if (length === UNDEFINED_LENGTH) {
    if (tag === Tag.PixelData && syntax.explicit) return { tag, vr, fragments: await readFragments(reader) };
    // SQ, or UN of undefined length, which PS3.5 6.2.2 says is a sequence encoded in Implicit VR Little Endian.
    const itemSyntax = vr === 'UN' ? { ...syntax, explicit: false } : syntax;
    return { tag, vr: 'SQ', items: await readSequence(reader, itemSyntax, undefined, depth) };
  }
  if (reader.pos + length > reader.pos + reader.remaining) {
    throw new DicomFormatError('truncated', `The file ends inside ${what()}.`);
  }
  if (vr === 'SQ') return { tag, vr, items: await readSequence(reader, syntax, reader.pos + length, depth) };
  if (!syntax.explicit && vr === 'UN' && length >= 8) {
    // A sequence this package has no dictionary entry for: recognised by its first item tag.
    await reader.ensure(4, what);
    if (reader.peekU32() === 0xe000fffe) {
      return { tag, vr: 'SQ', items: await readSequence(reader, syntax, reader.pos + length, depth) };
    }
  }
  if (length > syntax.bulkThreshold) {
    const bulk: ByteRange = { offset: reader.pos, length };
    reader.pos += length;
    return { tag, vr, bulk };
  }
  await reader.ensure(length, what);
  return { tag, vr, value: reader.bytes(length) };
}

async function readSequence(
  reader: RangeReader,
  syntax: Syntax,
  end: number | undefined,
  depth: number,
): Promise<DicomDataset[]> {
  const items: DicomDataset[] = [];
  for (;;) {
    if (end !== undefined && reader.pos >= end) {
      if (reader.pos > end) throw new DicomFormatError('malformed', 'An item runs past the end of its sequence.');
      return items;
    }
    await reader.ensure(8, () => 'a sequence');
    const tag = reader.tag();
    const length = reader.u32();
    if (tag === Tag.SequenceDelimitation) {
      if (end !== undefined)
        throw new DicomFormatError('malformed', 'A sequence delimiter ends a sequence of defined length.');
      return items;
    }
    if (tag !== Tag.Item)
      throw new DicomFormatError('malformed', `A sequence holds ${formatTag(tag)} where an item should be.`);
    if (length === UNDEFINED_LENGTH) {
      items.push(await readItemsUntil(reader, syntax, Number.POSITIVE_INFINITY, true, depth + 1));
    } else {
      const itemEnd = reader.pos + length;
      if (itemEnd > reader.pos + reader.remaining)
        throw new DicomFormatError('truncated', 'The file ends inside an item.');
      items.push(await readItemsUntil(reader, syntax, itemEnd, false, depth + 1));
      reader.pos = itemEnd;
    }
  }
}

/** Encapsulated pixel data (PS3.5 A.4): items of defined length up to the sequence delimiter, skipped, not read. */
async function readFragments(reader: RangeReader): Promise<ByteRange[]> {
  const fragments: ByteRange[] = [];
  for (;;) {
    await reader.ensure(8, () => 'the encapsulated pixel data');
    const tag = reader.tag();
    const length = reader.u32();
    if (tag === Tag.SequenceDelimitation) return fragments;
    if (tag !== Tag.Item || length === UNDEFINED_LENGTH) {
      throw new DicomFormatError('malformed', 'The encapsulated pixel data holds something other than fragments.');
    }
    if (length > reader.remaining) throw new DicomFormatError('truncated', 'The file ends inside the pixel data.');
    fragments.push({ offset: reader.pos, length });
    reader.pos += length;
  }
}
