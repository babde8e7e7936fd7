import {
  customOutcomeDefinition,
  customOutcomePlaneQuantityInfo,
  customOutcomeProblem,
  customOutcomeVersionSchema,
  sameComputation,
  storedCustomOutcomeSchema,
  trialOutcomeDefinitions,
  type CustomOutcome,
  type CustomOutcomeVersion,
  type ReplaceCustomOutcomes,
  type SimulationKindName,
  type StoredCustomOutcome,
  type TrialOutcomeDefinition,
} from '@insilico/contracts';
import { readNumericCsv } from '@insilico/contracts/csv';
import { z } from 'zod';
import { monitorColumn, type Outcomes } from './trial-outcomes';

/** The statistics of the object's scalars at one saved timestep (frame summaries: min, max, mean over particles). */
export type StepStats = Record<string, { min: number | null; max: number | null; mean: number | null }>;

/** A trial's stored user-defined outcomes (checked against the catalogue when they were set). */
export function storedCustomOutcomes(trial: { customOutcomes: unknown }): StoredCustomOutcome[] {
  return z.array(storedCustomOutcomeSchema).parse(trial.customOutcomes);
}

/** A trial's record of every version of its user outcomes. */
export function customOutcomeHistory(trial: { customOutcomeHistory: unknown }): CustomOutcomeVersion[] {
  return z.array(customOutcomeVersionSchema).parse(trial.customOutcomeHistory);
}

/** New user outcomes as a trial stores them: `user_1`, `user_2`, … in order, version 1. */
export function firstVersions(outcomes: readonly CustomOutcome[]): StoredCustomOutcome[] {
  return outcomes.map((definition, i) => ({ key: `user_${i + 1}`, version: 1, definition }));
}

/** The record of a new trial's user outcomes: each first version, since the trial's creation. */
export function firstHistory(
  outcomes: readonly StoredCustomOutcome[],
  since: string,
  by: string | null,
): CustomOutcomeVersion[] {
  return outcomes.map((o) => ({ ...o, since, until: null, by }));
}

/** Every outcome of a trial: the kind's, then the user's (`user_1`, …). */
export function trialOutcomesOf(trial: {
  kind: SimulationKindName;
  customOutcomes: unknown;
}): TrialOutcomeDefinition[] {
  return [
    ...trialOutcomeDefinitions[trial.kind],
    ...storedCustomOutcomes(trial).map((o) => customOutcomeDefinition(trial.kind, o.definition, o.key, o.version)),
  ];
}

/** What a change of a trial's user outcomes does: the new list and record, and which keys it adds, changes, removes. */
export interface CustomOutcomeChange {
  outcomes: StoredCustomOutcome[];
  history: CustomOutcomeVersion[];
  added: string[];
  /** Keys whose computation changed (a new version: values read again). */
  changed: string[];
  /** Keys only renamed (same computation, same version: values stay). */
  renamed: string[];
  removed: string[];
}

/**
 * Plans a change of a trial's user outcomes (`PUT …/custom-outcomes`): an entry with a current key keeps that outcome
 * (a changed computation is its next version, a new name alone is not), an entry without one is new (the next key the
 * trial never used), a current outcome left out is removed. Answers the reason instead when the request names a key
 * the trial does not have now, names it twice, or a definition the kind cannot compute or a name taken.
 */
export function planCustomOutcomeChange(
  trial: { kind: SimulationKindName; customOutcomes: unknown; customOutcomeHistory: unknown },
  request: ReplaceCustomOutcomes['outcomes'],
  now: string,
  by: string,
): CustomOutcomeChange | string {
  const current = storedCustomOutcomes(trial);
  const history = customOutcomeHistory(trial);
  const byKey = new Map(current.map((o) => [o.key, o]));
  const seen = new Set<string>();
  const labels: string[] = trialOutcomeDefinitions[trial.kind].map((d) => d.label);
  // The next key: one more than any the trial has had (a removed key is never given to another definition).
  let next = Math.max(0, ...[...history, ...current].map((o) => Number(o.key.slice('user_'.length)))) + 1;
  const change: CustomOutcomeChange = { outcomes: [], history, added: [], changed: [], renamed: [], removed: [] };
  for (const entry of request) {
    const problem = customOutcomeProblem(trial.kind, entry.definition, labels);
    if (problem) return problem;
    labels.push(entry.definition.label);
    if (entry.key === null) {
      const key = `user_${next++}`;
      change.outcomes.push({ key, version: 1, definition: entry.definition });
      change.added.push(key);
      continue;
    }
    const was = byKey.get(entry.key);
    if (!was || seen.has(entry.key))
      return `The trial has no outcome ${entry.key} of your own now: reload the trial and try again.`;
    seen.add(entry.key);
    if (sameComputation(was.definition, entry.definition)) {
      change.outcomes.push({ ...was, definition: entry.definition });
      if (was.definition.label !== entry.definition.label) change.renamed.push(entry.key);
    } else {
      change.outcomes.push({ key: was.key, version: was.version + 1, definition: entry.definition });
      change.changed.push(entry.key);
    }
  }
  change.removed = current.filter((o) => !seen.has(o.key)).map((o) => o.key);
  // The record: the versions that stop end now; new and changed ones start now; a new name updates the version's.
  const ends = new Set([...change.removed, ...change.changed]);
  change.history = history.map((v) => {
    if (v.until !== null) return v;
    if (ends.has(v.key)) return { ...v, until: now };
    const renamed = change.outcomes.find((o) => o.key === v.key && o.version === v.version);
    return renamed ? { ...v, definition: renamed.definition } : v;
  });
  for (const o of change.outcomes)
    if (change.added.includes(o.key) || change.changed.includes(o.key))
      change.history.push({ ...o, since: now, until: null, by });
  return change;
}

/**
 * A patient's outcome values as shown now: the kind's, and each user outcome's only when it came from the current
 * version of its definition (otherwise null, with a note, until the reading again has stored it).
 */
export function currentOutcomeValues(
  outcomes: readonly StoredCustomOutcome[],
  patient: {
    outcomes: Record<string, number | null> | null;
    outcomeNotes: Record<string, string>;
    outcomeVersions: Record<string, number>;
  },
): { values: Record<string, number | null> | null; notes: Record<string, string> } {
  if (!patient.outcomes) return { values: null, notes: patient.outcomeNotes };
  const values: Record<string, number | null> = {};
  const notes: Record<string, string> = {};
  for (const [key, value] of Object.entries(patient.outcomes)) {
    if (!key.startsWith('user_')) {
      values[key] = value;
      if (patient.outcomeNotes[key]) notes[key] = patient.outcomeNotes[key];
    }
  }
  for (const o of outcomes) {
    const fresh = versionOf(patient, o.key) === o.version && o.key in patient.outcomes;
    values[o.key] = fresh ? (patient.outcomes[o.key] ?? null) : null;
    const note = fresh
      ? patient.outcomeNotes[o.key]
      : 'Being read again from the saved outputs for the changed definition.';
    if (note) notes[o.key] = note;
  }
  return { values, notes };
}

/** The definition version a patient's value of a user outcome came from (1 when read before versions were kept). */
export function versionOf(patient: { outcomeVersions: Record<string, number> }, outcomeKey: string): number {
  return patient.outcomeVersions[outcomeKey] ?? 1;
}

function reduce(values: readonly number[], how: CustomOutcome['over']): number | null {
  if (values.length === 0) return null;
  switch (how) {
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'mean':
      return values.reduce((s, v) => s + v, 0) / values.length;
    case 'last':
      return values.at(-1)!;
  }
}

/**
 * The user's outcomes of one finished run, from what the run stored: an object field reduced over the particles at
 * each saved timestep (the frames' statistics) then over the timesteps; a monitor plane's column of `monitors.csv`
 * reduced over the timesteps. No expression is evaluated: each definition names its source and its reductions. A
 * value the outputs cannot give is null with the reason.
 */
export function evaluateCustomOutcomes(
  outcomes: readonly StoredCustomOutcome[],
  steps: readonly StepStats[],
  monitorsCsv: string | null,
): Outcomes {
  const values: Record<string, number | null> = {};
  const notes: Record<string, string> = {};
  const table = monitorsCsv ? readNumericCsv(monitorsCsv) : null;
  for (const { key, definition: outcome } of outcomes) {
    let series: number[];
    let missing: string;
    if (outcome.source === 'object') {
      series = steps.flatMap((stats) => {
        const value = stats[outcome.field]?.[outcome.particles];
        return value !== null && value !== undefined && Number.isFinite(value) ? [value] : [];
      });
      missing = `The run stored no frames with ${outcome.field}.`;
    } else {
      const quantity = customOutcomePlaneQuantityInfo[outcome.quantity];
      const header = `${outcome.plane} ${outcome.quantity} (${quantity.unit})`;
      series = (table ? (monitorColumn(table, header) ?? []) : []).filter(Number.isFinite);
      missing = table ? `The run’s monitors have no ${header}.` : 'The run stored no monitor values.';
    }
    const value = reduce(series, outcome.over);
    values[key] = value;
    if (value === null) notes[key] = missing;
  }
  return { values, notes };
}
