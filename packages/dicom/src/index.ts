export type { ByteRange, ByteSource, DicomDataset, DicomElement, DicomFile, Vr } from './types';
export { bytesSource, blobSource, type BlobLike } from './byteSource';
export { DicomFormatError, type DicomErrorCode } from './errors';
export { readDicom, hasDicomPrefix, type ReadOptions } from './reader';
export { writeDicom, writeDicomBytes } from './writer';
export { Tag, TransferSyntax, formatTag, isPrivateTag } from './tags';
export { readString, readText, stringOf, findElement, encodeString, stringElement, putElement } from './values';
export { Pseudonymiser, GENERATED_UID_PATTERN, PSEUDONYM_PATTERN } from './pseudonyms';
export { shiftDa, shiftDt } from './dates';
export { BASIC_PROFILE_TABLE } from './profile/basicProfileTable';
export type { ProfileAction, ProfileOptions, ProfileRow } from './profile/profileTypes';
export {
  ruleFor,
  profileRow,
  type ProfileChoice,
  type ResolvedAction,
  type AttributeRule,
} from './profile/profileRules';
export {
  deidentify,
  planDeidentification,
  patientKey,
  IMPLEMENTATION_CLASS_UID,
  IMPLEMENTATION_VERSION_NAME,
  type DeidentifyOptions,
  type DeidentifyResult,
  type TagAction,
} from './deidentify';
export { auditDeidentified, type AuditFinding } from './audit';
export { burnedInReasons, burnedInFacts, BURNED_IN_RULES, type BurnedInRule, type BurnedInFacts } from './burnedIn';
export { summarise, buildTree, type FileSummary, type PatientNode, type StudyNode, type SeriesNode } from './tree';
export { readFrame, frameProblem, defaultWindow, windowValue, thumbnailOf, type Frame } from './pixels';
export { maskProblem, maskedSource, type MaskRegion } from './mask';
