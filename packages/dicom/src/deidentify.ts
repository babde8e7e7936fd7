import { shiftDa, shiftDt } from './dates';
import { ruleFor, type AttributeRule, type ProfileChoice, type ResolvedAction } from './profile/profileRules';
import type { Pseudonymiser } from './pseudonyms';
import { Tag, formatTag } from './tags';
import type { DicomDataset, DicomElement, DicomFile, Vr } from './types';
import { encodeString, putElement, readString, stringElement, stringOf } from './values';

/** This product's Implementation Class UID (a fixed 2.25 UUID) and version name, written into every output's meta. */
export const IMPLEMENTATION_CLASS_UID = '2.25.173640214390372779052356493453913785671';
export const IMPLEMENTATION_VERSION_NAME = 'INSILICO_DEID_1';

export interface DeidentifyOptions extends ProfileChoice {
  pseudonymiser: Pseudonymiser;
}

/** One line of what was (or will be) done: per attribute and action, how many times. */
export interface TagAction {
  tag: string;
  name: string;
  action: ResolvedAction;
  count: number;
}

export interface DeidentifyResult {
  file: DicomFile;
  actions: TagAction[];
}

class ActionLog {
  private readonly entries = new Map<string, TagAction>();

  add(tag: number, rule: AttributeRule): void {
    const key = rule.name === 'Private attribute' ? 'private' : `${tag}:${rule.action}`;
    const entry = this.entries.get(key);
    if (entry) entry.count += 1;
    else
      this.entries.set(key, {
        tag: key === 'private' ? '(gggg,eeee) odd group' : formatTag(tag),
        name: rule.name,
        action: rule.action,
        count: 1,
      });
  }

  list(): TagAction[] {
    return [...this.entries.values()].sort((a, b) => a.tag.localeCompare(b.tag));
  }
}

/** Dummy values for D, by VR: text that says what it is, zeros for numbers. */
const TEXT_DUMMY = 'ANONYMIZED';
export const DUMMY_VALUES: Partial<Record<Vr, string>> = {
  AE: TEXT_DUMMY,
  AS: '000Y',
  CS: TEXT_DUMMY,
  DA: '19000101',
  DS: '0',
  DT: '19000101000000',
  IS: '0',
  LO: TEXT_DUMMY,
  LT: TEXT_DUMMY,
  PN: TEXT_DUMMY,
  SH: TEXT_DUMMY,
  ST: TEXT_DUMMY,
  TM: '000000',
  UC: TEXT_DUMMY,
  UR: 'urn:x-anonymized',
  UT: TEXT_DUMMY,
};
const BINARY_SIZES: Partial<Record<Vr, number>> = { AT: 4, FD: 8, FL: 4, SL: 4, SS: 2, SV: 8, UL: 4, US: 2, UV: 8 };

const PATIENT_TAGS = new Set<number>([Tag.PatientName, Tag.PatientId]);

interface Context {
  options: DeidentifyOptions;
  pseudonym: string;
  shiftDays: number;
  log: ActionLog;
}

/** The key that tells one patient from another in an upload (never stored; it only seeds the pseudonym and shift). */
export function patientKey(dataset: DicomDataset): string {
  return (
    stringOf(dataset, Tag.PatientId) || stringOf(dataset, Tag.PatientName) || stringOf(dataset, Tag.StudyInstanceUid)
  );
}

/**
 * De-identifies one file by the Basic Application Level Confidentiality Profile (PS3.15 E.2, Table E.1-1), applied
 * at every depth of every sequence, private attributes, curves and overlays removed; UIDs replaced consistently
 * across the upload (the pseudonymiser's secret); Patient ID and Patient's Name both the patient's pseudonym; dates
 * removed, or shifted by the patient's offset with the Modified Dates option. Records what it did in the data
 * set itself (PS3.15 E.1.1: Patient Identity Removed, De-identification Method and its code sequence, Longitudinal
 * Temporal Information Modified) and returns the actions per attribute.
 */
export async function deidentify(file: DicomFile, options: DeidentifyOptions): Promise<DeidentifyResult> {
  const key = patientKey(file.dataset);
  const context: Context = {
    options,
    pseudonym: await options.pseudonymiser.patient(key),
    shiftDays: options.modifiedDates ? await options.pseudonymiser.dateShiftDays(key) : 0,
    log: new ActionLog(),
  };
  const dataset = await cleanDataset(file.dataset, context);
  putElement(dataset, stringElement(Tag.PatientIdentityRemoved, 'CS', 'YES'));
  const methods = ['Basic Application Confidentiality Profile'];
  const codes: [string, string][] = [['113100', 'Basic Application Confidentiality Profile']];
  if (options.modifiedDates) {
    methods.push('Retain Longitudinal Temporal Information Modified Dates Option');
    codes.push(['113107', 'Retain Longitudinal Temporal Information Modified Dates Option']);
  }
  putElement(dataset, stringElement(Tag.DeidentificationMethod, 'LO', methods.join('\\')));
  putElement(dataset, {
    tag: Tag.DeidentificationMethodCodeSequence,
    vr: 'SQ',
    items: codes.map(([value, meaning]) => [
      stringElement(Tag.CodeValue, 'SH', value),
      stringElement(Tag.CodingSchemeDesignator, 'SH', 'DCM'),
      stringElement(Tag.CodeMeaning, 'LO', meaning),
    ]),
  });
  putElement(
    dataset,
    stringElement(Tag.LongitudinalTemporalInformationModified, 'CS', options.modifiedDates ? 'MODIFIED' : 'REMOVED'),
  );

  const sopClass = stringOf(dataset, Tag.SopClassUid) || stringOf(file.meta, Tag.MediaStorageSopClassUid);
  const meta: DicomDataset = [
    { tag: Tag.FileMetaInformationVersion, vr: 'OB', value: new Uint8Array([0, 1]) },
    stringElement(Tag.MediaStorageSopClassUid, 'UI', sopClass),
    stringElement(Tag.MediaStorageSopInstanceUid, 'UI', stringOf(dataset, Tag.SopInstanceUid)),
    stringElement(Tag.TransferSyntaxUid, 'UI', file.transferSyntaxUid),
    stringElement(Tag.ImplementationClassUid, 'UI', IMPLEMENTATION_CLASS_UID),
    stringElement(Tag.ImplementationVersionName, 'SH', IMPLEMENTATION_VERSION_NAME),
  ];
  return { file: { ...file, meta, dataset }, actions: context.log.list() };
}

async function cleanDataset(dataset: DicomDataset, context: Context): Promise<DicomDataset> {
  const out: DicomDataset = [];
  for (const element of dataset) {
    const cleaned = await cleanElement(element, context);
    if (cleaned) out.push(cleaned);
  }
  // PS3.5 7.1: ascending tag order, which a file from elsewhere may break; the output keeps it whatever came in.
  return out.sort((a, b) => (a.tag >>> 0) - (b.tag >>> 0));
}

async function cleanItems(element: DicomElement, context: Context): Promise<DicomElement> {
  const items: DicomDataset[] = [];
  for (const item of element.items ?? []) items.push(await cleanDataset(item, context));
  return { tag: element.tag, vr: 'SQ', items };
}

async function cleanElement(element: DicomElement, context: Context): Promise<DicomElement | undefined> {
  const vr: Vr = element.items ? 'SQ' : element.vr;
  const rule = ruleFor(element.tag, vr, context.options);
  if (!rule) return element.items ? cleanItems(element, context) : element;
  if (rule.action !== 'K') context.log.add(element.tag, rule);
  switch (rule.action) {
    case 'X':
      return undefined;
    case 'K':
    case 'S':
      return element.items ? cleanItems(element, context) : element;
    case 'Z':
      if (element.items) return { tag: element.tag, vr, items: [] };
      // Z allows a dummy: Patient's Name takes the pseudonym, so that patients stay apart after de-identification.
      if (PATIENT_TAGS.has(element.tag)) return stringElement(element.tag, vr, context.pseudonym);
      return { tag: element.tag, vr, value: new Uint8Array(0) };
    case 'D':
      if (PATIENT_TAGS.has(element.tag)) return stringElement(element.tag, vr, context.pseudonym);
      if (vr === 'UI') return replaceUids(element, context);
      return { tag: element.tag, vr, value: dummyValue(vr) };
    case 'U':
      return replaceUids(element, context);
    case 'C':
      return shiftDates(element, context);
  }
}

function dummyValue(vr: Vr): Uint8Array {
  const text = DUMMY_VALUES[vr];
  if (text !== undefined) return encodeString(text, vr);
  const size = BINARY_SIZES[vr];
  return new Uint8Array(size ?? 2);
}

async function replaceUids(element: DicomElement, context: Context): Promise<DicomElement> {
  if (!element.value) return { tag: element.tag, vr: element.vr, value: new Uint8Array(0) };
  const originals = readString(element.value).split('\\');
  const replaced: string[] = [];
  for (const uid of originals)
    replaced.push(uid.trim() === '' ? '' : await context.options.pseudonymiser.uid(uid.trim()));
  return stringElement(element.tag, 'UI', replaced.join('\\'));
}

function shiftDates(element: DicomElement, context: Context): DicomElement {
  if (!element.value || element.vr === 'TM') return element; // a time of day says nothing once the date has moved
  const text = readString(element.value);
  const shifted = element.vr === 'DA' ? shiftDa(text, context.shiftDays) : shiftDt(text, context.shiftDays);
  return {
    tag: element.tag,
    vr: element.vr,
    value: shifted === undefined ? new Uint8Array(0) : encodeString(shifted, element.vr),
  };
}

/** What de-identification will do to a data set, without doing it: the tags to anonymize shown before confirming. */
export function planDeidentification(dataset: DicomDataset, choice: ProfileChoice): TagAction[] {
  const log = new ActionLog();
  const walk = (elements: DicomDataset): void => {
    for (const element of elements) {
      const vr: Vr = element.items ? 'SQ' : element.vr;
      const rule = ruleFor(element.tag, vr, choice);
      if (rule && rule.action !== 'K') log.add(element.tag, rule);
      const descend = !rule || rule.action === 'K' || rule.action === 'S';
      if (descend) for (const item of element.items ?? []) walk(item);
    }
  };
  walk(dataset);
  return log.list();
}
