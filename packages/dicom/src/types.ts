/** Value representations of PS3.5 Table 6.2-1. */
export type Vr =
  | 'AE'
  | 'AS'
  | 'AT'
  | 'CS'
  | 'DA'
  | 'DS'
  | 'DT'
  | 'FL'
  | 'FD'
  | 'IS'
  | 'LO'
  | 'LT'
  | 'OB'
  | 'OD'
  | 'OF'
  | 'OL'
  | 'OV'
  | 'OW'
  | 'PN'
  | 'SH'
  | 'SL'
  | 'SQ'
  | 'SS'
  | 'ST'
  | 'SV'
  | 'TM'
  | 'UC'
  | 'UI'
  | 'UL'
  | 'UN'
  | 'UR'
  | 'US'
  | 'UT'
  | 'UV';

/** A byte range of the source file: a large value the reader skipped instead of loading. */
export interface ByteRange {
  offset: number;
  length: number;
}

/** One attribute. Exactly one of value, bulk, items, fragments holds its content. */
export interface DicomElement {
  /** group << 16 | element, unsigned */
  tag: number;
  vr: Vr;
  /** a value small enough to be read (at most the reader's bulk threshold) */
  value?: Uint8Array;
  /** a larger value, left in the source and copied from it when written */
  bulk?: ByteRange;
  /** a sequence's items, each an ordered list of elements */
  items?: DicomElement[][];
  /** encapsulated (compressed) pixel data: the basic offset table first, then each fragment */
  fragments?: ByteRange[];
}

export type DicomDataset = DicomElement[];

/** A DICOM Part 10 file as read: file meta information (group 0002) and the data set. */
export interface DicomFile {
  meta: DicomDataset;
  dataset: DicomDataset;
  transferSyntaxUid: string;
  /** false for Implicit VR Little Endian */
  explicitVr: boolean;
}

/** Random access to a file's bytes: a File/Blob in the browser, a buffer in tests, a file handle in Node. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}
