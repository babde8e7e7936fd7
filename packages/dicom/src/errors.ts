export type DicomErrorCode = 'not-dicom' | 'truncated' | 'malformed' | 'unsupported-transfer-syntax';

/** Why a file cannot be read as DICOM, with a sentence fit to show the user next to the file's name. */
export class DicomFormatError extends Error {
  constructor(
    readonly code: DicomErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DicomFormatError';
  }
}
