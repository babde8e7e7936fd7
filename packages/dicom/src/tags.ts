/** Tags used by name in this package (group << 16 | element). */
export const Tag = {
  FileMetaInformationGroupLength: 0x00020000,
  FileMetaInformationVersion: 0x00020001,
  MediaStorageSopClassUid: 0x00020002,
  MediaStorageSopInstanceUid: 0x00020003,
  TransferSyntaxUid: 0x00020010,
  ImplementationClassUid: 0x00020012,
  ImplementationVersionName: 0x00020013,
  SpecificCharacterSet: 0x00080005,
  ImageType: 0x00080008,
  SopClassUid: 0x00080016,
  SopInstanceUid: 0x00080018,
  StudyDate: 0x00080020,
  Modality: 0x00080060,
  Manufacturer: 0x00080070,
  CodeValue: 0x00080100,
  CodingSchemeDesignator: 0x00080102,
  CodeMeaning: 0x00080104,
  StudyDescription: 0x00081030,
  SeriesDescription: 0x0008103e,
  ManufacturerModelName: 0x00081090,
  PatientName: 0x00100010,
  PatientId: 0x00100020,
  PatientIdentityRemoved: 0x00120062,
  DeidentificationMethod: 0x00120063,
  DeidentificationMethodCodeSequence: 0x00120064,
  StudyInstanceUid: 0x0020000d,
  SeriesInstanceUid: 0x0020000e,
  SeriesNumber: 0x00200011,
  InstanceNumber: 0x00200013,
  NumberOfFrames: 0x00280008,
  Rows: 0x00280010,
  Columns: 0x00280011,
  BurnedInAnnotation: 0x00280301,
  LongitudinalTemporalInformationModified: 0x00280303,
  PixelData: 0x7fe00010,
  Item: 0xfffee000,
  ItemDelimitation: 0xfffee00d,
  SequenceDelimitation: 0xfffee0dd,
} as const;

export const TransferSyntax = {
  ImplicitVrLittleEndian: '1.2.840.10008.1.2',
  ExplicitVrLittleEndian: '1.2.840.10008.1.2.1',
  DeflatedExplicitVrLittleEndian: '1.2.840.10008.1.2.1.99',
  ExplicitVrBigEndian: '1.2.840.10008.1.2.2',
} as const;

export const isPrivateTag = (tag: number): boolean => ((tag >>> 16) & 1) === 1;

export const tagGroup = (tag: number): number => tag >>> 16;

/** "(0010,0010)", as DICOM writes tags. */
export function formatTag(tag: number): string {
  const hex = (tag >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `(${hex.slice(0, 4)},${hex.slice(4)})`;
}
