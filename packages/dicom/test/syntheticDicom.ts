// Builds small DICOM files for tests, byte by byte and independently of the package's writer, so that a bug
// shared by reader and writer cannot hide. Sequences and items may have defined or undefined length.

export type Node =
  | { tag: number; vr: string; text: string }
  | { tag: number; vr: string; bytes: Uint8Array }
  | { tag: number; vr: 'SQ'; items: Node[][]; undefinedLength?: boolean; itemsUndefinedLength?: boolean }
  | { tag: number; vr: 'OB'; fragments: Uint8Array[] };

const LONG = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT', 'SV', 'UV']);

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u16(v: number): Uint8Array {
  return new Uint8Array([v & 0xff, (v >> 8) & 0xff]);
}
function u32(v: number): Uint8Array {
  return new Uint8Array([v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]);
}
function tagBytes(tag: number): Uint8Array {
  return concat([u16(tag >>> 16), u16(tag & 0xffff)]);
}
function text(value: string, vr: string): Uint8Array {
  const bytes = new TextEncoder().encode(value);
  return bytes.length % 2 === 0 ? bytes : concat([bytes, new Uint8Array([vr === 'UI' ? 0 : 0x20])]);
}

function header(tag: number, vr: string, length: number, explicit: boolean): Uint8Array {
  if (!explicit) return concat([tagBytes(tag), u32(length)]);
  const vrBytes = new TextEncoder().encode(vr);
  return LONG.has(vr)
    ? concat([tagBytes(tag), vrBytes, u16(0), u32(length)])
    : concat([tagBytes(tag), vrBytes, u16(length)]);
}

export function encodeNodes(nodes: Node[], explicit: boolean): Uint8Array {
  return concat(nodes.map((node) => encodeNode(node, explicit)));
}

function encodeNode(node: Node, explicit: boolean): Uint8Array {
  if ('items' in node) {
    const items = node.items.map((item) => {
      const body = encodeNodes(item, explicit);
      return node.itemsUndefinedLength
        ? concat([tagBytes(0xfffee000), u32(0xffffffff), body, tagBytes(0xfffee00d), u32(0)])
        : concat([tagBytes(0xfffee000), u32(body.length), body]);
    });
    const body = concat(items);
    return node.undefinedLength
      ? concat([header(node.tag, node.vr, 0xffffffff, explicit), body, tagBytes(0xfffee0dd), u32(0)])
      : concat([header(node.tag, node.vr, body.length, explicit), body]);
  }
  if ('fragments' in node) {
    const items = node.fragments.map((f) => concat([tagBytes(0xfffee000), u32(f.length), f]));
    return concat([header(node.tag, node.vr, 0xffffffff, explicit), ...items, tagBytes(0xfffee0dd), u32(0)]);
  }
  const value = 'text' in node ? text(node.text, node.vr) : node.bytes;
  return concat([header(node.tag, node.vr, value.length, explicit), value]);
}

export const IMPLICIT = '1.2.840.10008.1.2';
export const EXPLICIT = '1.2.840.10008.1.2.1';
export const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';
export const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';

/** A Part 10 file: preamble (filled with a marker, which must not survive), DICM, meta, data set. */
export function part10(
  dataset: Node[],
  options: { transferSyntax?: string; preamble?: string } = {},
): Uint8Array<ArrayBuffer> {
  const ts = options.transferSyntax ?? EXPLICIT;
  const sopClass = dataset.find((n) => n.tag === 0x00080016);
  const sopInstance = dataset.find((n) => n.tag === 0x00080018);
  const metaBody = encodeNodes(
    [
      { tag: 0x00020001, vr: 'OB', bytes: new Uint8Array([0, 1]) },
      { tag: 0x00020002, vr: 'UI', text: sopClass && 'text' in sopClass ? sopClass.text : CT_IMAGE_STORAGE },
      { tag: 0x00020003, vr: 'UI', text: sopInstance && 'text' in sopInstance ? sopInstance.text : '1.2.3' },
      { tag: 0x00020010, vr: 'UI', text: ts },
      { tag: 0x00020012, vr: 'UI', text: '1.2.3.4.99' },
      { tag: 0x00020016, vr: 'AE', text: 'HOSPITAL_PACS' },
    ],
    true,
  );
  const preamble = new Uint8Array(128);
  if (options.preamble) preamble.set(new TextEncoder().encode(options.preamble));
  return concat([
    preamble,
    new TextEncoder().encode('DICM'),
    encodeNodes([{ tag: 0x00020000, vr: 'UL', bytes: u32(metaBody.length) }], true),
    metaBody,
    encodeNodes(dataset, ts !== IMPLICIT),
  ]);
}

/** Pixel data with a recognisable pattern (no text in it). */
export function pixels(rows: number, columns: number, seed = 1): Uint8Array {
  const out = new Uint8Array(rows * columns * 2);
  for (let i = 0; i < out.length; i += 1) out[i] = (i * 7 + seed * 13) % 251;
  return out;
}

export interface PatientSpec {
  name: string;
  id: string;
  birthDate: string;
  studyUid: string;
  studyDate: string;
  seriesUid: string;
  sopUid: string;
  seriesDescription?: string;
  referencedSopUid?: string;
  modality?: string;
  instanceNumber?: number;
}

/** One patient for tests that need any. */
export const JANE_DOE: PatientSpec = {
  name: 'DOE^JANE',
  id: 'MRN-1',
  birthDate: '19700101',
  studyUid: '1.2.826.0.1.3680043.2.1125.7',
  studyDate: '20240101',
  seriesUid: '1.2.826.0.1.3680043.2.1125.7.2',
  sopUid: '1.2.826.0.1.3680043.2.1125.7.2.3',
};

/**
 * A CT image full of identifying values in hard places: names in nested sequences (defined and undefined length),
 * a private group, an overlay, dates as DA, DT and TM, UIDs at the top and inside references.
 */
export function hostileCt(p: PatientSpec, rows = 4, columns = 4): Node[] {
  return [
    { tag: 0x00080005, vr: 'CS', text: 'ISO_IR 100' },
    { tag: 0x00080008, vr: 'CS', text: 'ORIGINAL\\PRIMARY\\AXIAL' },
    { tag: 0x00080012, vr: 'DA', text: p.studyDate },
    { tag: 0x00080016, vr: 'UI', text: CT_IMAGE_STORAGE },
    { tag: 0x00080018, vr: 'UI', text: p.sopUid },
    { tag: 0x00080020, vr: 'DA', text: p.studyDate },
    { tag: 0x00080021, vr: 'DA', text: p.studyDate },
    { tag: 0x0008002a, vr: 'DT', text: `${p.studyDate}101530.123` },
    { tag: 0x00080030, vr: 'TM', text: '101530' },
    { tag: 0x00080050, vr: 'SH', text: `ACC-${p.id}` },
    { tag: 0x00080060, vr: 'CS', text: p.modality ?? 'CT' },
    { tag: 0x00080070, vr: 'LO', text: 'ACME Scanners' },
    { tag: 0x00080080, vr: 'LO', text: 'St Elsewhere Hospital' },
    { tag: 0x00080081, vr: 'ST', text: '1 Hospital Road, Springfield' },
    { tag: 0x00080090, vr: 'PN', text: 'HOUSE^GREGORY' },
    { tag: 0x00081030, vr: 'LO', text: 'CT THORAX ABDOMEN' },
    { tag: 0x0008103e, vr: 'LO', text: p.seriesDescription ?? 'Arterial phase 1mm' },
    { tag: 0x00081070, vr: 'PN', text: 'OPERATOR^OLIVIA' },
    ...(p.referencedSopUid
      ? [
          {
            tag: 0x00081140,
            vr: 'SQ' as const,
            undefinedLength: true,
            itemsUndefinedLength: true,
            items: [
              [
                { tag: 0x00081150, vr: 'UI', text: CT_IMAGE_STORAGE },
                { tag: 0x00081155, vr: 'UI', text: p.referencedSopUid },
              ],
            ],
          },
        ]
      : []),
    {
      tag: 0x00082218, // Anatomic Region Sequence: not in the profile, kept, its items still treated
      vr: 'SQ',
      items: [
        [
          { tag: 0x00080100, vr: 'SH', text: 'T-D3000' },
          { tag: 0x00080102, vr: 'SH', text: 'SRT' },
          { tag: 0x00080104, vr: 'LO', text: 'Chest' },
          { tag: 0x00101000, vr: 'LO', text: `NESTED-OTHER-${p.id}` }, // Other Patient IDs (retired), X
          { tag: 0x00190010, vr: 'LO', text: 'ACME NESTED PRIVATE' },
        ],
      ],
    },
    { tag: 0x00090010, vr: 'LO', text: 'ACME 1.0' },
    { tag: 0x00091001, vr: 'LO', text: `PRIVATE-COPY-OF-${p.name}` },
    { tag: 0x00100010, vr: 'PN', text: p.name },
    { tag: 0x00100020, vr: 'LO', text: p.id },
    { tag: 0x00100030, vr: 'DA', text: p.birthDate },
    { tag: 0x00100040, vr: 'CS', text: 'M' },
    {
      tag: 0x00101002, // Other Patient IDs Sequence, X, with a name two levels down
      vr: 'SQ',
      undefinedLength: true,
      items: [
        [
          { tag: 0x00100020, vr: 'LO', text: `OTHER-${p.id}` },
          {
            tag: 0x00100024, // Issuer of Patient ID Qualifiers Sequence
            vr: 'SQ',
            items: [[{ tag: 0x00400032, vr: 'UT', text: 'Springfield General Registry' }]],
          },
        ],
      ],
    },
    { tag: 0x00101040, vr: 'LO', text: '742 Evergreen Terrace' },
    { tag: 0x00180015, vr: 'CS', text: 'CHEST' },
    { tag: 0x00181000, vr: 'LO', text: 'SN-4455667' },
    { tag: 0x0020000d, vr: 'UI', text: p.studyUid },
    { tag: 0x0020000e, vr: 'UI', text: p.seriesUid },
    { tag: 0x00200010, vr: 'SH', text: `STUDY-${p.id}` },
    { tag: 0x00200011, vr: 'IS', text: '3' },
    { tag: 0x00200013, vr: 'IS', text: String(p.instanceNumber ?? 1) },
    { tag: 0x00200052, vr: 'UI', text: `${p.studyUid}.77` }, // Frame of Reference UID
    { tag: 0x00204000, vr: 'LT', text: `Image of ${p.name}` },
    { tag: 0x00280002, vr: 'US', bytes: u16(1) },
    { tag: 0x00280004, vr: 'CS', text: 'MONOCHROME2' },
    { tag: 0x00280010, vr: 'US', bytes: u16(rows) },
    { tag: 0x00280011, vr: 'US', bytes: u16(columns) },
    { tag: 0x00280100, vr: 'US', bytes: u16(16) },
    { tag: 0x00280101, vr: 'US', bytes: u16(12) },
    { tag: 0x00280102, vr: 'US', bytes: u16(11) },
    { tag: 0x00280103, vr: 'US', bytes: u16(0) },
    { tag: 0x60003000, vr: 'OW', text: `OVERLAY ${p.name}` },
    { tag: 0x7fe00010, vr: 'OW', bytes: pixels(rows, columns) },
  ];
}

export const latin1 = (bytes: Uint8Array): string => new TextDecoder('latin1').decode(bytes);
