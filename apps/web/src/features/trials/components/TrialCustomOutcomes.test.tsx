import { describe, expect, it } from 'vitest';
import type { CustomOutcome, TrialDetail } from '@insilico/contracts';
import { nextEntries, removedOutcomes, type OutcomeEntry } from './TrialCustomOutcomes';

const outcome = (label: string): CustomOutcome => ({
  source: 'object',
  label,
  field: 'velocity',
  particles: 'max',
  over: 'max',
});
const entries: OutcomeEntry[] = [
  { key: 'user_1', definition: outcome('A') },
  { key: 'user_3', definition: outcome('B') },
  { key: null, definition: outcome('C') },
];

describe('the trial page’s outcome entries', () => {
  it('keeps each outcome’s key through edits and removals, and gives new ones none', () => {
    const edited = nextEntries(entries, [outcome('A2'), outcome('B'), outcome('C')]);
    expect(edited.map((e) => [e.key, e.definition.label])).toEqual([
      ['user_1', 'A2'],
      ['user_3', 'B'],
      [null, 'C'],
    ]);
    const removed = nextEntries(entries, [outcome('A'), outcome('C')], 1);
    expect(removed.map((e) => e.key)).toEqual(['user_1', null]);
    const added = nextEntries(entries, [...entries.map((e) => e.definition), outcome('D')]);
    expect(added.map((e) => e.key)).toEqual(['user_1', 'user_3', null, null]);
  });

  it('names the trial’s outcomes a draft takes out (asked before saving)', () => {
    const trial = {
      customOutcomes: [
        { key: 'user_1', version: 1, definition: outcome('A') },
        { key: 'user_3', version: 2, definition: outcome('B') },
      ],
    } as Pick<TrialDetail, 'customOutcomes'> as TrialDetail;
    expect(removedOutcomes(trial, nextEntries(entries, [outcome('A'), outcome('C')], 1))).toEqual(['B']);
    expect(removedOutcomes(trial, entries)).toEqual([]);
  });
});
