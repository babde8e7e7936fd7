import type { DicomDataset, DicomElement, Vr } from './types';

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');
const encoder = new TextEncoder();

/** A string value without its padding (trailing spaces and NULs), read as ISO 8859-1 (ASCII for UIDs, codes, dates). */
export function readString(bytes: Uint8Array): string {
  return latin1.decode(bytes).replace(/[\0 ]+$/, '');
}

/** A text value for display: UTF-8 when the data set says ISO_IR 192, else ISO 8859-1. */
export function readText(bytes: Uint8Array, characterSet: string): string {
  return (characterSet.includes('ISO_IR 192') ? utf8 : latin1)
    .decode(bytes)
    .replace(/[\0 ]+$/, '')
    .trim();
}

/** The bytes of a string value, padded to even length (UIDs with NUL, other strings with a space: PS3.5 6.2). */
export function encodeString(text: string, vr: Vr): Uint8Array {
  const raw = encoder.encode(text);
  if (raw.length % 2 === 0) return raw;
  const padded = new Uint8Array(raw.length + 1);
  padded.set(raw);
  padded[raw.length] = vr === 'UI' ? 0 : 0x20;
  return padded;
}

export function findElement(dataset: DicomDataset, tag: number): DicomElement | undefined {
  return dataset.find((e) => e.tag === tag);
}

/** A top-level string attribute, '' when absent or not a short value. */
export function stringOf(dataset: DicomDataset, tag: number): string {
  const value = findElement(dataset, tag)?.value;
  return value ? readString(value) : '';
}

/** An unsigned 16-bit attribute (US), undefined when absent. */
export function uint16Of(dataset: DicomDataset, tag: number): number | undefined {
  const value = findElement(dataset, tag)?.value;
  if (!value || value.length < 2) return undefined;
  return new DataView(value.buffer, value.byteOffset, value.byteLength).getUint16(0, true);
}

export function stringElement(tag: number, vr: Vr, text: string): DicomElement {
  return { tag, vr, value: encodeString(text, vr) };
}

/** Inserts or replaces an attribute, keeping the data set in ascending tag order. */
export function putElement(dataset: DicomDataset, element: DicomElement): void {
  const index = dataset.findIndex((e) => e.tag >>> 0 >= element.tag >>> 0);
  if (index === -1) dataset.push(element);
  else if (dataset[index]?.tag === element.tag) dataset[index] = element;
  else dataset.splice(index, 0, element);
}
