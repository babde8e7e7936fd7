import { DUMMY_VALUES } from './deidentify';
import { ruleFor } from './profile/profileRules';
import { GENERATED_UID_PATTERN, PSEUDONYM_PATTERN } from './pseudonyms';
import { Tag, formatTag } from './tags';
import type { DicomDataset, DicomFile, Vr } from './types';
import { readString, stringOf } from './values';

export interface AuditFinding {
  tag: string;
  name: string;
  problem: string;
}

/**
 * Checks a file said to be de-identified by this product against the profile, without the originals: no private
 * attribute, curve or overlay; nothing the profile removes; empty, dummy or pseudonym values where it empties or
 * replaces; every replaced UID a generated one; Patient Identity Removed = YES. Dates may be shifted when the file
 * says they were modified. An empty list means the file passes (the server's re-check after upload).
 */
export function auditDeidentified(file: DicomFile): AuditFinding[] {
  const findings: AuditFinding[] = [];
  if (stringOf(file.dataset, Tag.PatientIdentityRemoved) !== 'YES') {
    findings.push({
      tag: formatTag(Tag.PatientIdentityRemoved),
      name: 'Patient Identity Removed',
      problem: 'is not YES',
    });
  }
  const instance = stringOf(file.meta, Tag.MediaStorageSopInstanceUid);
  if (!GENERATED_UID_PATTERN.test(instance)) {
    findings.push({
      tag: formatTag(Tag.MediaStorageSopInstanceUid),
      name: 'Media Storage SOP Instance UID',
      problem: 'is an original UID',
    });
  }
  const modifiedDates = stringOf(file.dataset, Tag.LongitudinalTemporalInformationModified) === 'MODIFIED';
  auditDataset(file.dataset, modifiedDates, findings);
  return findings;
}

function auditDataset(dataset: DicomDataset, modifiedDates: boolean, findings: AuditFinding[]): void {
  for (const element of dataset) {
    const vr: Vr = element.items ? 'SQ' : element.vr;
    const rule = ruleFor(element.tag, vr, { modifiedDates });
    const tag = formatTag(element.tag);
    if (!rule || rule.action === 'K' || rule.action === 'S') {
      for (const item of element.items ?? []) auditDataset(item, modifiedDates, findings);
      continue;
    }
    const text = element.value ? readString(element.value) : '';
    const hasContent =
      (element.items?.length ?? 0) > 0 || element.bulk !== undefined || element.fragments !== undefined;
    const patientTag = element.tag === Tag.PatientId || element.tag === Tag.PatientName;
    switch (rule.action) {
      case 'X':
        findings.push({ tag, name: rule.name, problem: 'is present and must be removed' });
        break;
      case 'Z':
        if (hasContent || (text !== '' && !(patientTag && PSEUDONYM_PATTERN.test(text)))) {
          findings.push({ tag, name: rule.name, problem: 'has a value and must be empty' });
        }
        break;
      case 'D': {
        const allowed = patientTag
          ? PSEUDONYM_PATTERN.test(text)
          : vr === 'UI'
            ? allGenerated(text)
            : isDummy(vr, element.value);
        if (hasContent || !allowed)
          findings.push({ tag, name: rule.name, problem: 'holds a value other than a dummy' });
        break;
      }
      case 'U':
        if (hasContent || !allGenerated(text))
          findings.push({ tag, name: rule.name, problem: 'holds an original UID' });
        break;
      case 'C':
        if (hasContent) findings.push({ tag, name: rule.name, problem: 'holds unexpected content' });
        break;
    }
  }
}

function allGenerated(text: string): boolean {
  return text === '' || text.split('\\').every((uid) => uid === '' || GENERATED_UID_PATTERN.test(uid));
}

function isDummy(vr: Vr, value: Uint8Array | undefined): boolean {
  if (!value || value.length === 0) return true;
  const text = DUMMY_VALUES[vr];
  if (text !== undefined) return readString(value) === text;
  return value.every((b) => b === 0);
}
