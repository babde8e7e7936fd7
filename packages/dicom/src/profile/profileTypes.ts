import type { Vr } from '../types';

/**
 * Action codes of PS3.15 Table E.1-1: D dummy value, Z zero length (or dummy), X remove, K keep, C clean,
 * U replace UID; the compound codes name the choices allowed for conformance with the IOD.
 */
export type ProfileAction = 'D' | 'Z' | 'X' | 'K' | 'C' | 'U' | 'Z/D' | 'X/Z' | 'X/D' | 'X/Z/D' | 'X/Z/U*';

/** The option columns of Table E.1-1, each changing the basic action where it names one. */
export interface ProfileOptions {
  safePrivate?: ProfileAction;
  uids?: ProfileAction;
  deviceIdentity?: ProfileAction;
  institutionIdentity?: ProfileAction;
  patientCharacteristics?: ProfileAction;
  fullDates?: ProfileAction;
  modifiedDates?: ProfileAction;
  cleanDescriptors?: ProfileAction;
  cleanStructuredContent?: ProfileAction;
  cleanGraphics?: ProfileAction;
}

export interface ProfileRow {
  tag: number;
  name: string;
  vr: Vr;
  basic: ProfileAction;
  options?: ProfileOptions;
}
