import {
  Tag,
  deidentify,
  maskedSource,
  readDicom,
  stringOf,
  writeDicom,
  type ByteSource,
  type MaskRegion,
  type Pseudonymiser,
  type TagAction,
} from '@insilico/dicom';
import { compressEntry, type CompressedEntry } from './zipArchive';

/** One DICOM file de-identified, written and compressed, with its new identifiers and what was done to it. */
export interface DeidentifiedFile {
  entry: CompressedEntry;
  patient: string;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  actions: TagAction[];
}

/**
 * The work of one file: read, de-identified by the profile, written (pixel data copied from the source's bytes,
 * masked where regions are given) and deflated under a name made from the new identifiers only.
 */
export async function deidentifyFile(
  source: ByteSource,
  pseudonymiser: Pseudonymiser,
  modifiedDates: boolean,
  regions: readonly MaskRegion[],
): Promise<DeidentifiedFile> {
  const { file: clean, actions } = await deidentify(await readDicom(source), { pseudonymiser, modifiedDates });
  // The clean file's pixel data still refers to the original's bytes: masked as they are copied.
  const pixels = regions.length > 0 ? maskedSource(clean, source, regions) : source;
  const patient = stringOf(clean.dataset, Tag.PatientId);
  const studyInstanceUid = stringOf(clean.dataset, Tag.StudyInstanceUid);
  const seriesInstanceUid = stringOf(clean.dataset, Tag.SeriesInstanceUid);
  const sop = stringOf(clean.dataset, Tag.SopInstanceUid);
  const entry = await compressEntry(
    `${patient}/${studyInstanceUid}/${seriesInstanceUid}/${sop}.dcm`,
    writeDicom(clean, pixels),
  );
  return { entry, patient, studyInstanceUid, seriesInstanceUid, actions };
}
