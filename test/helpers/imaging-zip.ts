import type { ImagingManifest } from '@insilico/contracts';
import { Pseudonymiser, bytesSource, deidentify, readDicom, writeDicomBytes } from '@insilico/dicom';
import { hostileCt, part10, type PatientSpec } from '@insilico/dicom/testing';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';

/**
 * The one builder of imaging zips for the tests (API suites and journeys alike): a zip of named entries, the test
 * corpus's hostile CT put through the de-identification profile as the browser does, and the de-identification
 * manifest the browser writes beside the files. Support staff's model deliveries are zips of the same builder.
 */

/** A zip of the entries, in their order (names as given: a test may ask for unsafe ones). */
export async function zipOf(entries: readonly (readonly [string, Uint8Array])[]): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter());
  for (const [name, bytes] of entries) await writer.add(name, new Uint8ArrayReader(bytes));
  return writer.close();
}

/** The patient, study, series and instance of test CT number `n` (identifying values the profile must remove). */
export function ctSpec(n: number, instance = 1, uidRoot = '1.2.826.0.1.3680043.11'): PatientSpec {
  return {
    name: `PATIENT${n}^TEST`,
    id: `MRN-${n}`,
    birthDate: '19600101',
    studyUid: `${uidRoot}.${n}`,
    studyDate: '20230101',
    seriesUid: `${uidRoot}.${n}.1`,
    sopUid: `${uidRoot}.${n}.1.${instance}`,
  };
}

/** The corpus's hostile CT of `spec`, de-identified (dates removed) and written as Part 10 bytes. */
export async function deidentifiedCt(
  spec: PatientSpec,
  pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret()),
): Promise<Uint8Array> {
  const source = bytesSource(part10(hostileCt(spec)));
  const { file } = await deidentify(await readDicom(source), { pseudonymiser, modifiedDates: false });
  return writeDicomBytes(file, source);
}

/** The de-identification manifest the browser writes into the zip (`tool` names the suite or journey). */
export function deidentificationManifest(tool: string, createdAt = new Date().toISOString()): ImagingManifest {
  return {
    tool,
    profile: 'DICOM PS3.15 Annex E Basic Application Level Confidentiality Profile',
    options: [],
    createdAt,
    series: [],
    excludedSeries: 0,
    additionalFiles: [],
  };
}

/** The manifest as the zip's `deidentification-manifest.json` entry. */
export function manifestEntry(manifest: ImagingManifest): [string, Uint8Array] {
  return ['deidentification-manifest.json', new TextEncoder().encode(JSON.stringify(manifest))];
}
