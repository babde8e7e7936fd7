import { isPrivateTag } from '../tags';
import type { Vr } from '../types';
import { BASIC_PROFILE_TABLE } from './basicProfileTable';
import type { ProfileAction, ProfileRow } from './profileTypes';

/** The options of PS3.15 E.3 this product offers. */
export interface ProfileChoice {
  /** E.3.6 Retain Longitudinal Temporal Information with Modified Dates: dates shifted per patient, not removed. */
  modifiedDates: boolean;
}

/**
 * What is done to one attribute: X remove, Z empty, D dummy, U new UID, K keep, C clean (a shifted date), S keep
 * the sequence and treat its items (X/Z/U*: the UIDs inside are replaced by their own rows).
 */
export type ResolvedAction = 'X' | 'Z' | 'D' | 'U' | 'K' | 'C' | 'S';

export interface AttributeRule {
  name: string;
  action: ResolvedAction;
  /** the code of Table E.1-1 (or of the option's column) it comes from */
  code: ProfileAction;
}

const rows = new Map<number, ProfileRow>(BASIC_PROFILE_TABLE.map((row) => [row.tag, row]));

export function profileRow(tag: number): ProfileRow | undefined {
  return rows.get(tag);
}

const DATE_VRS: ReadonlySet<Vr> = new Set(['DA', 'DT', 'TM']);

/**
 * The action for an attribute, or undefined for one the profile does not name (kept; a kept sequence's items are
 * still treated). Compound codes resolve to the choice that keeps every IOD conformant without knowing the IOD:
 * X/Z → Z, X/D, Z/D and X/Z/D → D, X/Z/U* → S. A D on a sequence empties it (a dummy item could not be told
 * apart from data), so identifying text in coded items never survives.
 */
export function ruleFor(tag: number, vr: Vr, choice: ProfileChoice): AttributeRule | undefined {
  if (isPrivateTag(tag)) return { name: 'Private attribute', action: 'X', code: 'X' };
  const group = tag >>> 16;
  const element = tag & 0xffff;
  if (group >= 0x5000 && group <= 0x50ff && group % 2 === 0) return { name: 'Curve Data', action: 'X', code: 'X' };
  if (group >= 0x6000 && group <= 0x60ff && group % 2 === 0) {
    if (element === 0x3000) return { name: 'Overlay Data', action: 'X', code: 'X' };
    if (element === 0x4000) return { name: 'Overlay Comments', action: 'X', code: 'X' };
  }
  const row = rows.get(tag);
  if (!row) return undefined;
  const optionCode = choice.modifiedDates ? row.options?.modifiedDates : undefined;
  if (optionCode === 'C' && DATE_VRS.has(vr)) return { name: row.name, action: 'C', code: 'C' };
  return { name: row.name, action: resolve(row.basic, vr), code: row.basic };
}

function resolve(code: ProfileAction, vr: Vr): ResolvedAction {
  switch (code) {
    case 'X':
      return 'X';
    case 'K':
      return 'K';
    case 'U':
      return 'U';
    case 'C':
      return 'C';
    case 'Z':
    case 'X/Z':
      return 'Z';
    case 'D':
    case 'X/D':
    case 'Z/D':
    case 'X/Z/D':
      return vr === 'SQ' ? 'Z' : 'D';
    case 'X/Z/U*':
      return vr === 'SQ' ? 'S' : 'U';
  }
}
