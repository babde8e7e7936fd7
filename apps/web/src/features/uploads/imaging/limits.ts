/** Spec §5 and §9: one imaging dataset, a .zip of at most 1 GB, DICOM only. 1 GB is 1024³ bytes, the upload limit's. */
export const MAX_ZIP_BYTES = 1024 ** 3;
/** The most a zip may unpack to, whatever its entries declare (zip bombs): 4 GB, the free memory the spec advises. */
export const MAX_UNPACKED_BYTES = 4 * 1024 ** 3;
/** Entries above 1 MB that unpack to more than this many times their packed size are refused (zip bombs). */
export const MAX_COMPRESSION_RATIO = 200;

export const LIMITS_TEXT =
  'One imaging dataset as a .zip of at most 1 GB (or a folder), DICOM only; 4 GB of free memory advised; anonymizing and uploading may take up to 30 minutes.';

export const zipTooBigMessage = (bytes: number): string =>
  `The zip is ${(bytes / 1024 ** 3).toFixed(2)} GB: a zip can have at most 1 GB. Split the dataset into several uploads.`;
export const NOT_A_ZIP_MESSAGE = 'This file is not a .zip archive. Choose a .zip of DICOM files, or a folder.';
export const UNPACKED_TOO_BIG_MESSAGE = 'The zip unpacks to more than 4 GB. Split the dataset into several uploads.';
export const NO_DICOM_MESSAGE = 'No DICOM file was found. Only DICOM images can be anonymized and uploaded.';
