import { burnedInReasons } from './burnedIn';
import { planDeidentification, type TagAction } from './deidentify';
import type { ProfileChoice } from './profile/profileRules';
import { Tag } from './tags';
import { maskProblem } from './mask';
import type { DicomFile } from './types';
import { findElement, readText, stringOf } from './values';

/** What the tree needs of one file, read once (the data set itself can then be dropped). */
export interface FileSummary {
  path: string;
  patientId: string;
  patientName: string;
  studyInstanceUid: string;
  studyDescription: string;
  studyDate: string;
  seriesInstanceUid: string;
  seriesDescription: string;
  seriesNumber: string;
  modality: string;
  sopInstanceUid: string;
  frames: number;
  burnedIn: string[];
  /** why its pixels cannot be masked (compressed, …), or null */
  maskProblem: string | null;
  tagsToAnonymize: TagAction[];
}

export function summarise(path: string, file: DicomFile, choice: ProfileChoice): FileSummary {
  const { dataset } = file;
  const charset = stringOf(dataset, Tag.SpecificCharacterSet);
  const text = (tag: number): string => {
    const value = findElement(dataset, tag)?.value;
    return value ? readText(value, charset) : '';
  };
  const frames = Number.parseInt(stringOf(dataset, Tag.NumberOfFrames), 10);
  return {
    path,
    patientId: text(Tag.PatientId),
    patientName: text(Tag.PatientName).replace(/\^+/g, ' ').trim(),
    studyInstanceUid: stringOf(dataset, Tag.StudyInstanceUid),
    studyDescription: text(Tag.StudyDescription),
    studyDate: stringOf(dataset, Tag.StudyDate),
    seriesInstanceUid: stringOf(dataset, Tag.SeriesInstanceUid),
    seriesDescription: text(Tag.SeriesDescription),
    seriesNumber: stringOf(dataset, Tag.SeriesNumber),
    modality: stringOf(dataset, Tag.Modality),
    sopInstanceUid: stringOf(dataset, Tag.SopInstanceUid),
    frames: Number.isFinite(frames) && frames > 0 ? frames : 1,
    burnedIn: burnedInReasons(dataset),
    maskProblem: maskProblem(file),
    tagsToAnonymize: planDeidentification(dataset, choice),
  };
}

export interface SeriesNode {
  id: string;
  description: string;
  modality: string;
  seriesNumber: string;
  /** files (instances) in the series */
  files: string[];
  /** images: frames summed over the files */
  images: number;
  burnedIn: string[];
  /** why the pixels of one of its files cannot be masked, or null when every file's can */
  maskProblem: string | null;
  tagsToAnonymize: TagAction[];
}

export interface StudyNode {
  id: string;
  description: string;
  date: string;
  series: SeriesNode[];
}

export interface PatientNode {
  id: string;
  name: string;
  studies: StudyNode[];
}

/**
 * Patients → studies → series, as spec §3's DICOM upload state holds them. Series keep their files' paths, the
 * image count, the burned-in reasons of any file, and the tags to anonymize summed over their files. A file of an
 * instance already seen (same SOP Instance UID) is counted once.
 */
export function buildTree(summaries: readonly FileSummary[]): PatientNode[] {
  const patients = new Map<string, PatientNode>();
  const studies = new Map<string, StudyNode>();
  const series = new Map<string, SeriesNode>();
  const seen = new Set<string>();
  for (const file of summaries) {
    if (file.sopInstanceUid && seen.has(file.sopInstanceUid)) continue;
    if (file.sopInstanceUid) seen.add(file.sopInstanceUid);
    const patientId = file.patientId || file.patientName || '(no patient ID)';
    let patient = patients.get(patientId);
    if (!patient) {
      patient = { id: patientId, name: file.patientName, studies: [] };
      patients.set(patientId, patient);
    }
    const studyKey = `${patientId}\u0000${file.studyInstanceUid}`;
    let study = studies.get(studyKey);
    if (!study) {
      study = { id: file.studyInstanceUid, description: file.studyDescription, date: file.studyDate, series: [] };
      studies.set(studyKey, study);
      patient.studies.push(study);
    }
    const seriesKey = `${studyKey}\u0000${file.seriesInstanceUid}`;
    let node = series.get(seriesKey);
    if (!node) {
      node = {
        id: file.seriesInstanceUid,
        description: file.seriesDescription,
        modality: file.modality,
        seriesNumber: file.seriesNumber,
        files: [],
        images: 0,
        burnedIn: [],
        maskProblem: null,
        tagsToAnonymize: [],
      };
      series.set(seriesKey, node);
      study.series.push(node);
    }
    node.files.push(file.path);
    node.images += file.frames;
    for (const reason of file.burnedIn) if (!node.burnedIn.includes(reason)) node.burnedIn.push(reason);
    node.maskProblem ??= file.maskProblem;
    mergeActions(node.tagsToAnonymize, file.tagsToAnonymize);
  }
  return [...patients.values()];
}

function mergeActions(into: TagAction[], from: readonly TagAction[]): void {
  for (const action of from) {
    const existing = into.find((a) => a.tag === action.tag && a.action === action.action);
    if (existing) existing.count += action.count;
    else into.push({ ...action });
  }
  into.sort((a, b) => a.tag.localeCompare(b.tag));
}
