import { BASIC_PROFILE_TABLE } from './profile/basicProfileTable';
import { SEQUENCE_TAGS } from './sequenceTags';
import { Tag } from './tags';
import type { Vr } from './types';

// Implicit VR Little Endian carries no VRs: they come from the dictionary. This package knows the VRs it acts on
// (every attribute of the confidentiality profile, every sequence, the attributes it summarises); any other
// attribute reads as UN and is copied byte for byte.
const known = new Map<number, Vr>([
  [Tag.SpecificCharacterSet, 'CS'],
  [Tag.ImageType, 'CS'],
  [Tag.SopClassUid, 'UI'],
  [Tag.Modality, 'CS'],
  [Tag.Manufacturer, 'LO'],
  [Tag.CodeValue, 'SH'],
  [Tag.CodingSchemeDesignator, 'SH'],
  [Tag.CodeMeaning, 'LO'],
  [Tag.ManufacturerModelName, 'LO'],
  [Tag.PatientIdentityRemoved, 'CS'],
  [Tag.DeidentificationMethod, 'LO'],
  [Tag.SeriesNumber, 'IS'],
  [Tag.InstanceNumber, 'IS'],
  [Tag.NumberOfFrames, 'IS'],
  [Tag.Rows, 'US'],
  [Tag.Columns, 'US'],
  [Tag.BurnedInAnnotation, 'CS'],
  [Tag.LongitudinalTemporalInformationModified, 'CS'],
  [Tag.PixelData, 'OW'],
  [0x00280002, 'US'], // Samples per Pixel
  [0x00280004, 'CS'], // Photometric Interpretation
  [0x00280100, 'US'], // Bits Allocated
  [0x00280101, 'US'], // Bits Stored
  [0x00280102, 'US'], // High Bit
  [0x00280103, 'US'], // Pixel Representation
  [0x00281050, 'DS'], // Window Center
  [0x00281051, 'DS'], // Window Width
  [0x00281052, 'DS'], // Rescale Intercept
  [0x00281053, 'DS'], // Rescale Slope
]);
for (const row of BASIC_PROFILE_TABLE) if (row.vr !== 'UN') known.set(row.tag, row.vr);
for (const tag of SEQUENCE_TAGS) known.set(tag, 'SQ');

/** The VR of a tag for Implicit VR reading, UN where this package does not know it. */
export function dictionaryVr(tag: number): Vr {
  if ((tag & 0xffff) === 0 && tag >>> 16 !== 0xfffe) return 'UL'; // group lengths
  return known.get(tag) ?? 'UN';
}

/** VRs whose explicit encoding has 2 reserved bytes and a 32-bit length (PS3.5 7.1.2). */
export const LONG_VRS: ReadonlySet<string> = new Set([
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'SQ',
  'UC',
  'UN',
  'UR',
  'UT',
  'SV',
  'UV',
]);

export const ALL_VRS: ReadonlySet<string> = new Set([
  'AE',
  'AS',
  'AT',
  'CS',
  'DA',
  'DS',
  'DT',
  'FL',
  'FD',
  'IS',
  'LO',
  'LT',
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'PN',
  'SH',
  'SL',
  'SQ',
  'SS',
  'ST',
  'SV',
  'TM',
  'UC',
  'UI',
  'UL',
  'UN',
  'UR',
  'US',
  'UT',
  'UV',
]);
