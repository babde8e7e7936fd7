import type { Analysis } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { testAnalysis } from '../../../test/fixtures/analysis.fixtures';
import {
  analysisReducer,
  initialAnalysisState,
  reasonOf,
  type AnalysisAction,
  type AnalysisViewState,
} from './analysisState';
import type { AnalysisOutcome, WorkerReply } from './worker/analysisProtocol';

const analysis = (change: Partial<Analysis> = {}) => testAnalysis({ revision: 3, ...change });

const run = (state: AnalysisViewState, ...actions: AnalysisAction[]) => actions.reduce(analysisReducer, state);
const outcome = { rows: [0, 1] } as unknown as AnalysisOutcome;
const ok = (seq: number): WorkerReply => ({ seq, ok: true, outcome });

describe('exclusions', () => {
  it('toggles a patient in and out of the excluded set, marking the draft unsaved', () => {
    const start = initialAnalysisState(analysis());
    const excluded = run(start, { type: 'toggle', id: 'SYN-000001' });
    expect(excluded.draft.excluded).toEqual(['SYN-000001']);
    expect(excluded.dirty).toBe(true);
    const back = run(excluded, { type: 'toggle', id: 'SYN-000001' });
    expect(back.draft.excluded).toEqual([]);
  });

  it('removes several patients at once without repeating one already excluded', () => {
    const state = run(
      initialAnalysisState(analysis({ excluded: ['SYN-000002'] })),
      { type: 'exclude', ids: ['SYN-000002', 'SYN-000003', 'SYN-000004'] },
      { type: 'include', ids: ['SYN-000004'] },
    );
    expect(state.draft.excluded).toEqual(['SYN-000002', 'SYN-000003']);
  });

  it('leaves the state alone when nothing changes', () => {
    const start = initialAnalysisState(analysis({ excluded: ['SYN-000002'] }));
    expect(run(start, { type: 'exclude', ids: ['SYN-000002'] })).toBe(start);
    expect(run(start, { type: 'include', ids: ['SYN-000009'] })).toBe(start);
  });
});

describe('settings', () => {
  it('moves out-of-range percentiles at once (spec §5)', () => {
    const start = initialAnalysisState(analysis());
    const state = run(start, {
      type: 'change',
      change: { settings: { ...start.draft.settings, percentiles: [105, -2, 50], seedPercentile: -10 } },
    });
    expect(state.draft.settings.percentiles).toEqual([0, 50, 100]);
    expect(state.draft.settings.seedPercentile).toBe(0);
  });
});

describe('saving', () => {
  it('raises the patients flag while saving and takes the server’s revision and copy', () => {
    const excluded = run(initialAnalysisState(analysis()), { type: 'exclude', ids: ['SYN-000001'] });
    const saving = run(excluded, { type: 'save-started' });
    expect(saving.loading.patients).toBe(true);
    const saved = run(saving, { type: 'saved', analysis: analysis({ revision: 4, excluded: ['SYN-000001'] }) });
    expect(saved).toMatchObject({ revision: 4, dirty: false, sending: null, loading: { patients: false } });
  });

  it('keeps a change made during a save, to save it on top of the new revision', () => {
    const state = run(
      initialAnalysisState(analysis()),
      { type: 'exclude', ids: ['SYN-000001'] },
      { type: 'save-started' },
      { type: 'exclude', ids: ['SYN-000002'] },
      { type: 'saved', analysis: analysis({ revision: 4, excluded: ['SYN-000001'] }) },
    );
    expect(state).toMatchObject({ revision: 4, dirty: true });
    expect(state.draft.excluded).toEqual(['SYN-000001', 'SYN-000002']);
  });

  it('sends the reasons given since the last save with it, and keeps those given during a save for the next', () => {
    const first = run(
      initialAnalysisState(analysis()),
      { type: 'exclude', ids: ['SYN-000001'], reason: 'Calcified annulus' },
      { type: 'toggle', id: 'SYN-000002', reason: 'Outlier' },
      // The same reason again is not repeated; a change that changes nothing adds none.
      { type: 'exclude', ids: ['SYN-000003'], reason: 'Outlier' },
      { type: 'exclude', ids: ['SYN-000001'], reason: 'Ignored' },
    );
    expect(reasonOf(first)).toBe('Calcified annulus; Outlier');
    const during = run(
      first,
      { type: 'save-started' },
      { type: 'include', ids: ['SYN-000003'], reason: 'Measured again' },
    );
    expect(during.sendingReasons).toBe(2);
    const saved = run(during, {
      type: 'saved',
      analysis: analysis({ revision: 4, excluded: ['SYN-000001', 'SYN-000002', 'SYN-000003'] }),
    });
    expect(reasonOf(saved)).toBe('Measured again');
    expect(saved.dirty).toBe(true);
    const done = run(saved, { type: 'save-started' }, { type: 'saved', analysis: analysis({ revision: 5 }) });
    expect(reasonOf(done)).toBeUndefined();
  });

  it('stops at a conflict until the analysis is reloaded', () => {
    const conflicted = run(
      initialAnalysisState(analysis()),
      { type: 'exclude', ids: ['SYN-000001'] },
      { type: 'save-started' },
      { type: 'save-failed', conflict: true },
    );
    expect(conflicted).toMatchObject({ conflict: true, dirty: true, loading: { patients: false } });
    const reloaded = run(conflicted, { type: 'loaded', analysis: analysis({ revision: 7, excluded: ['SYN-000005'] }) });
    expect(reloaded).toMatchObject({ conflict: false, dirty: false, revision: 7 });
    expect(reloaded.draft.excluded).toEqual(['SYN-000005']);
  });
});

describe('loading the stored analysis', () => {
  it('keeps the state when the same revision arrives again (no second recalculation on mount)', () => {
    const start = initialAnalysisState(analysis());
    expect(run(start, { type: 'loaded', analysis: analysis() })).toBe(start);
  });
});

describe('recalculation flags and the alpha counter', () => {
  it('counts recalculations in flight and shows only the newest answer', () => {
    const start = initialAnalysisState(analysis());
    const two = run(start, { type: 'run-started', seq: 1 }, { type: 'run-started', seq: 2 });
    expect(two.loading).toEqual({ patients: false, correlation: true, alpha: 2 });
    // The older answer arrives first: dropped, but counted down.
    const one = run(two, { type: 'run-settled', reply: ok(1), stale: true });
    expect(one.loading).toEqual({ patients: false, correlation: true, alpha: 1 });
    expect(one.outcome).toBeNull();
    const done = run(one, { type: 'run-settled', reply: ok(2), stale: false });
    expect(done.loading).toEqual({ patients: false, correlation: false, alpha: 0 });
    expect(done.outcome).toBe(outcome);
  });

  it('replaces numbers by the failure, e.g. below 20 patients', () => {
    const state = run(
      initialAnalysisState(analysis()),
      { type: 'run-started', seq: 1 },
      { type: 'run-settled', reply: ok(1), stale: false },
      { type: 'run-started', seq: 2 },
      {
        type: 'run-settled',
        reply: {
          seq: 2,
          ok: false,
          code: 'insufficient_patients',
          message: 'Statistical analysis needs at least 20 patients.',
        },
        stale: false,
      },
    );
    expect(state.outcome).toBeNull();
    expect(state.failure).toEqual({
      code: 'insufficient_patients',
      message: 'Statistical analysis needs at least 20 patients.',
    });
    expect(state.loading.alpha).toBe(0);
  });

  it('never counts below zero', () => {
    const state = run(initialAnalysisState(analysis()), { type: 'run-settled', reply: ok(9), stale: true });
    expect(state.loading.alpha).toBe(0);
  });
});

describe('parameters the server took out (a deleted trial’s outcomes)', () => {
  const gone = 'trial.22222222-2222-4222-8222-222222222222.final_ovality';
  const dropped = [{ parameter: gone, label: 'Final ovality', reason: 'Its trial was deleted.', removedFrom: [] }];
  const stored = () => analysis({ parameters: ['height_cm', gone] });

  it('saves the unchanged draft again on request, then shows what went until dismissed', () => {
    const start = initialAnalysisState(stored());
    const asked = run(start, { type: 'resave' });
    expect(asked.dirty).toBe(true);
    expect(run(asked, { type: 'resave' })).toBe(asked);
    const saved = run(
      asked,
      { type: 'save-started' },
      { type: 'saved', analysis: analysis({ revision: 4, parameters: ['height_cm'], dropped }) },
    );
    expect([saved.draft.parameters, saved.dirty, saved.dropped]).toEqual([['height_cm'], false, dropped]);
    expect(run(saved, { type: 'dropped-seen' }).dropped).toEqual([]);
  });

  it('takes them out of a draft changed while the save was on its way, which stays to be saved', () => {
    const saving = run(initialAnalysisState(stored()), { type: 'resave' }, { type: 'save-started' });
    const changed = run(saving, { type: 'exclude', ids: ['SYN-000001'], reason: 'Measured again' });
    const saved = run(changed, {
      type: 'saved',
      analysis: analysis({ revision: 4, parameters: ['height_cm'], dropped }),
    });
    expect([saved.draft.parameters, saved.draft.excluded, saved.dirty]).toEqual([['height_cm'], ['SYN-000001'], true]);
  });
});
