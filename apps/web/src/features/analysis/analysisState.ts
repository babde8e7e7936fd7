import {
  normalizeAnalysisSettings,
  withoutAnalysisParameters,
  type Analysis,
  type AnalysisSettings,
  type DroppedAnalysisParameter,
} from '@insilico/contracts';
import type { AnalysisFailureCode, AnalysisOutcome, WorkerReply } from './worker/analysisProtocol';

/**
 * The state of the population analysis page (spec §3 "Population analysis state", §4 "Analysis recalculates on
 * exclusion"): the editable inputs, their saving, and the recalculations. Loading flags as the spec lists them:
 * `patients` while the excluded set (with the other inputs) is being saved, `correlation` while the newest
 * recalculation runs, and `alpha`, a counter of recalculations in flight (a click while one runs starts another;
 * older answers are dropped but still counted down). See docs/decisions/analysis-page.md.
 */

/** What the user edits; saved to the server as one analysis. */
export interface AnalysisDraft {
  name: string;
  parameters: string[];
  settings: AnalysisSettings;
  excluded: string[];
}

export interface AnalysisViewState {
  draft: AnalysisDraft;
  /** The server's revision the next save is based on. */
  revision: number;
  /** The draft holds changes the server does not have yet. */
  dirty: boolean;
  /** The draft as sent by the save in flight (null when none is). */
  sending: AnalysisDraft | null;
  /**
   * The reasons given for the exclusions and inclusions not saved yet, in order (issue 20: the server keeps the reason
   * with each change of the excluded set); `sendingReasons` of them went with the save in flight.
   */
  reasons: string[];
  sendingReasons: number;
  /** A save was refused because the analysis changed elsewhere; nothing is saved until it is reloaded. */
  conflict: boolean;
  loading: { patients: boolean; correlation: boolean; alpha: number };
  /** Sequence number of the newest recalculation asked for. */
  latestSeq: number;
  /** The newest result (kept while a recalculation runs, so the page does not flicker; null after a failure). */
  outcome: AnalysisOutcome | null;
  /** Why the newest recalculation gave no result. */
  failure: { code: AnalysisFailureCode; message: string } | null;
  /** Parameters the server took out at a save (a deleted trial's outcomes), shown until dismissed. */
  dropped: DroppedAnalysisParameter[];
}

export type AnalysisAction =
  | { type: 'loaded'; analysis: Analysis }
  | { type: 'exclude'; ids: readonly string[]; reason?: string }
  | { type: 'include'; ids: readonly string[]; reason?: string }
  | { type: 'toggle'; id: string; reason?: string }
  | { type: 'change'; change: Partial<Pick<AnalysisDraft, 'name' | 'parameters' | 'settings'>> }
  | { type: 'save-started' }
  /** Saves the draft as it is: the server takes out what is gone (a deleted trial's outcomes still in use). */
  | { type: 'resave' }
  | { type: 'dropped-seen' }
  | { type: 'saved'; analysis: Analysis }
  | { type: 'save-failed'; conflict: boolean }
  | { type: 'run-started'; seq: number }
  | { type: 'run-settled'; reply: WorkerReply; stale: boolean };

/** The draft of a stored analysis. */
export function draftOf(analysis: Analysis): AnalysisDraft {
  return {
    name: analysis.name,
    parameters: [...analysis.parameters],
    settings: analysis.settings,
    excluded: [...analysis.excluded],
  };
}

export function initialAnalysisState(analysis: Analysis): AnalysisViewState {
  return {
    draft: draftOf(analysis),
    revision: analysis.revision,
    dirty: false,
    sending: null,
    reasons: [],
    sendingReasons: 0,
    conflict: false,
    loading: { patients: false, correlation: false, alpha: 0 },
    latestSeq: 0,
    outcome: null,
    failure: null,
    dropped: [],
  };
}

function sameDraft(a: AnalysisDraft, b: AnalysisDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function withDraft(state: AnalysisViewState, draft: AnalysisDraft, reason?: string): AnalysisViewState {
  if (sameDraft(draft, state.draft)) return state;
  const reasons = reason && !state.reasons.includes(reason) ? [...state.reasons, reason] : state.reasons;
  return { ...state, draft, dirty: true, reasons };
}

function withoutDropped(draft: AnalysisDraft, gone: readonly string[]): AnalysisDraft {
  if (gone.length === 0) return draft;
  const { parameters, settings } = withoutAnalysisParameters(draft, gone);
  return { ...draft, parameters, settings };
}

/** The reason for change a save sends with the excluded set (the reasons given since the last save, joined). */
export function reasonOf(state: Pick<AnalysisViewState, 'reasons'>): string | undefined {
  return state.reasons.length > 0 ? state.reasons.join('; ') : undefined;
}

export function analysisReducer(state: AnalysisViewState, action: AnalysisAction): AnalysisViewState {
  switch (action.type) {
    case 'loaded':
      // The same stored analysis again (e.g. on mount): nothing to replace, and no needless recalculation.
      if (
        action.analysis.revision === state.revision &&
        !state.dirty &&
        !state.conflict &&
        sameDraft(draftOf(action.analysis), state.draft)
      )
        return state;
      return {
        ...state,
        draft: draftOf(action.analysis),
        revision: action.analysis.revision,
        dirty: false,
        sending: null,
        reasons: [],
        sendingReasons: 0,
        conflict: false,
        loading: { ...state.loading, patients: false },
      };
    case 'exclude': {
      const added = action.ids.filter((id) => !state.draft.excluded.includes(id));
      return added.length === 0
        ? state
        : withDraft(state, { ...state.draft, excluded: [...state.draft.excluded, ...added] }, action.reason);
    }
    case 'include': {
      const removed = new Set(action.ids);
      return withDraft(
        state,
        { ...state.draft, excluded: state.draft.excluded.filter((id) => !removed.has(id)) },
        action.reason,
      );
    }
    case 'toggle': {
      const ids = [action.id];
      return analysisReducer(
        state,
        state.draft.excluded.includes(action.id)
          ? { type: 'include', ids, ...(action.reason ? { reason: action.reason } : {}) }
          : { type: 'exclude', ids, ...(action.reason ? { reason: action.reason } : {}) },
      );
    }
    case 'change': {
      const { settings, ...rest } = action.change;
      // Percentiles are moved into 0–100 at once (spec §5), as the server will store them.
      return withDraft(state, {
        ...state.draft,
        ...rest,
        ...(settings ? { settings: normalizeAnalysisSettings(settings) } : {}),
      });
    }
    case 'save-started':
      return {
        ...state,
        sending: state.draft,
        sendingReasons: state.reasons.length,
        loading: { ...state.loading, patients: true },
      };
    case 'saved': {
      // Unchanged since the save was sent: take the server's copy (it may have moved values). Changed: keep
      // the newer draft, still dirty, to be saved on top of the new revision.
      const untouched = state.sending !== null && sameDraft(state.draft, state.sending);
      // What the server took out is out of the newer draft too (its next save would add it back, and be refused).
      const dropped = action.analysis.dropped ?? [];
      const gone = dropped.map((d) => d.parameter);
      return {
        ...state,
        revision: action.analysis.revision,
        draft: untouched ? draftOf(action.analysis) : withoutDropped(state.draft, gone),
        dropped: [...state.dropped.filter((d) => !gone.includes(d.parameter)), ...dropped],
        dirty: !untouched,
        sending: null,
        // The reasons sent are kept with that change now; those given since go with the next save.
        reasons: state.reasons.slice(state.sendingReasons),
        sendingReasons: 0,
        loading: { ...state.loading, patients: false },
      };
    }
    case 'resave':
      return state.dirty ? state : { ...state, dirty: true };
    case 'dropped-seen':
      return { ...state, dropped: [] };
    case 'save-failed':
      return {
        ...state,
        sending: null,
        sendingReasons: 0,
        conflict: state.conflict || action.conflict,
        loading: { ...state.loading, patients: false },
      };
    case 'run-started':
      return {
        ...state,
        latestSeq: action.seq,
        loading: { ...state.loading, correlation: true, alpha: state.loading.alpha + 1 },
      };
    case 'run-settled': {
      const alpha = Math.max(0, state.loading.alpha - 1);
      if (action.stale || action.reply.seq !== state.latestSeq)
        return { ...state, loading: { ...state.loading, alpha } };
      const { reply } = action;
      return {
        ...state,
        outcome: reply.ok ? reply.outcome : null,
        failure: reply.ok ? null : { code: reply.code, message: reply.message },
        loading: { ...state.loading, correlation: false, alpha },
      };
    }
  }
}
