import { Tag } from './tags';
import type { DicomDataset } from './types';
import { stringOf } from './values';

/**
 * Rules for series that may carry identifying text in the pixels, which no attribute change removes: the user
 * sees their thumbnails and keeps them, leaves them out or masks a region. Each rule says why, in words.
 */
export interface BurnedInRule {
  reason: string;
  matches(facts: BurnedInFacts): boolean;
}

export interface BurnedInFacts {
  burnedInAnnotation: string;
  sopClassUid: string;
  imageType: string[];
  modality: string;
  manufacturer: string;
  seriesDescription: string;
  seriesNumber: string;
}

const SECONDARY_CAPTURE_PREFIX = '1.2.840.10008.5.1.4.1.1.7'; // Secondary Capture Image Storage and its multi-frame kin

export const BURNED_IN_RULES: readonly BurnedInRule[] = [
  { reason: 'Burned In Annotation is YES', matches: (f) => f.burnedInAnnotation === 'YES' },
  {
    reason: 'Secondary capture (often a screenshot)',
    matches: (f) => f.sopClassUid.startsWith(SECONDARY_CAPTURE_PREFIX),
  },
  {
    reason: 'Image type marks a screen capture or dose page',
    matches: (f) => f.imageType.some((v) => v === 'SCREEN SAVE' || v === 'DOSE_INFO' || v === 'DOSE REPORT'),
  },
  { reason: 'Ultrasound images usually carry burned-in text', matches: (f) => f.modality === 'US' },
  {
    reason: 'Dose report or other document',
    matches: (f) => f.modality === 'SR' || f.modality === 'DOC' || f.modality === 'OT',
  },
  {
    reason: 'Series description suggests a dose report, protocol page or screen capture',
    matches: (f) =>
      /\b(dose|screen ?(save|shot|capture)|patient protocol|report|exam summary)\b/i.test(f.seriesDescription),
  },
  // Manufacturers' dose pages, by the series numbers they give them.
  {
    reason: 'GE dose report series (number 999)',
    matches: (f) => /\bGE\b|GE MEDICAL/i.test(f.manufacturer) && f.seriesNumber === '999',
  },
  {
    reason: 'Siemens patient protocol series (number 501)',
    matches: (f) => /SIEMENS/i.test(f.manufacturer) && f.seriesNumber === '501',
  },
  {
    reason: 'Philips dose info series (number 7000 or above)',
    matches: (f) => /PHILIPS/i.test(f.manufacturer) && Number(f.seriesNumber) >= 7000,
  },
];

export function burnedInFacts(dataset: DicomDataset): BurnedInFacts {
  return {
    burnedInAnnotation: stringOf(dataset, Tag.BurnedInAnnotation).toUpperCase(),
    sopClassUid: stringOf(dataset, Tag.SopClassUid),
    imageType: stringOf(dataset, Tag.ImageType)
      .toUpperCase()
      .split('\\')
      .map((v) => v.trim()),
    modality: stringOf(dataset, Tag.Modality).toUpperCase(),
    manufacturer: stringOf(dataset, Tag.Manufacturer),
    seriesDescription: stringOf(dataset, Tag.SeriesDescription),
    seriesNumber: stringOf(dataset, Tag.SeriesNumber).trim(),
  };
}

/** Why a file's pixels may hold identifying text; empty when no rule matches. */
export function burnedInReasons(dataset: DicomDataset): string[] {
  const facts = burnedInFacts(dataset);
  return BURNED_IN_RULES.filter((rule) => rule.matches(facts)).map((rule) => rule.reason);
}
