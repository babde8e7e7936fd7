import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import type { Analysis, CohortParameterTable } from '@insilico/contracts';
import { matrixFromColumns, type PopulationMatrix } from '@insilico/stats';
import { ApiError } from '../../../lib/apiError';
import { analysisUrls, updateAnalysis } from '../api';
import {
  analysisReducer,
  initialAnalysisState,
  reasonOf,
  type AnalysisAction,
  type AnalysisDraft,
  type AnalysisViewState,
} from '../analysisState';
import { AnalysisWorkerClient, type WorkerPort } from '../worker/analysisProtocol';
import { goneOutcomesInUse, keysInUse, rowsWithoutValues } from '../trialOutcomes';
import { startAnalysisWorker } from '../worker/startAnalysisWorker';

export interface AnalysisSession {
  state: AnalysisViewState;
  dispatch: (action: AnalysisAction) => void;
  /** The cohort table as a matrix (every parameter), built once. */
  matrix: PopulationMatrix;
  /** Row of each patient id in the table. */
  rowOf: ReadonlyMap<string, number>;
  /** A save or a recalculation failed in a way only a reload can mend (spec §8's dialog). */
  broken: boolean;
}

/**
 * One open analysis: the draft and its saving (each change saved on top of the last revision, one save at a time),
 * and the recalculation in the Web Worker whenever the inputs change (spec §4).
 */
export function useAnalysisSession(
  deviceId: string,
  projectId: string,
  analysis: Analysis,
  table: CohortParameterTable,
  options: { startWorker?: () => WorkerPort } = {},
): AnalysisSession {
  const [state, dispatch] = useReducer(analysisReducer, analysis, initialAnalysisState);
  const [broken, setBroken] = useState(false);

  // A trial outcome a patient has none of is NaN in the table; the matrix holds finite numbers only, so it stands as 0
  // there, never read: a calculation using that parameter leaves the patient out (`rowsWithoutValues` below).
  const matrix = useMemo(
    () => matrixFromColumns(table.values.map((values) => Float64Array.from(values, (v) => (Number.isNaN(v) ? 0 : v)))),
    [table],
  );
  const rowOf = useMemo(() => new Map(table.patients.map((id, row) => [id, row])), [table]);
  const keys = useMemo(() => table.parameters.map((parameter) => parameter.key), [table]);

  // A new analysis (or a reload after a conflict) replaces the draft.
  useEffect(() => dispatch({ type: 'loaded', analysis }), [analysis]);
  // Outcomes of a trial deleted since the last save: saved again at once, the server takes them out and says so.
  const { canEdit } = analysis;
  const inputs = state.draft;
  useEffect(() => {
    if (canEdit && goneOutcomesInUse(table, inputs.parameters, inputs.settings).length > 0)
      dispatch({ type: 'resave' });
  }, [canEdit, table, inputs.parameters, inputs.settings]);

  // One worker per open analysis.
  const clientRef = useRef<AnalysisWorkerClient | null>(null);
  const startWorker = options.startWorker ?? startAnalysisWorker;
  useEffect(() => {
    const client = new AnalysisWorkerClient(startWorker(), (reply, stale) => {
      if (!stale && !reply.ok && reply.code === 'failed') setBroken(true);
      dispatch({ type: 'run-settled', reply, stale });
    });
    clientRef.current = client;
    return () => {
      client.dispose();
      clientRef.current = null;
    };
    // The worker lives as long as the page; `startWorker` is fixed per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Every change of the inputs recalculates (spec §4).
  const { parameters, settings, excluded } = state.draft;
  useEffect(() => {
    const client = clientRef.current;
    if (!client) return;
    const excludedRows = excluded.flatMap((id) => {
      const row = rowOf.get(id);
      return row === undefined ? [] : [row];
    });
    // Patients without a value of a parameter in use (a trial outcome they have none of) are left out too.
    for (const row of rowsWithoutValues(table, keysInUse(parameters, settings)))
      if (!excludedRows.includes(row)) excludedRows.push(row);
    const seq = client.run({ matrix, keys, parameters, excludedRows, settings });
    dispatch({ type: 'run-started', seq });
  }, [matrix, keys, rowOf, parameters, settings, excluded, table]);

  // The cached analysis is never refetched by itself (`useAnalysis`): when the page closes it takes the last saved
  // revision, or the page opened again within a minute would start from the old one and its next save conflict.
  // Not before: a new cached analysis reloads the draft (above), which may be ahead of the save.
  const { mutate } = useSWRConfig();
  const analysisKey = analysisUrls.analysis(deviceId, projectId, analysis.id);
  const lastSaved = useRef<Analysis | null>(null);
  const closed = useRef(false);
  const { dirty, sending, conflict, revision, draft } = state;
  // The reason for the exclusions the next save carries (the server asks for one when the excluded set changes).
  const reason = reasonOf(state);
  // A change still waiting for its save (saves wait 250 ms to gather quick clicks) when the page closes.
  const unsaved = useRef<{ revision: number; draft: AnalysisDraft; reason: string | undefined } | null>(null);
  useEffect(() => {
    unsaved.current =
      dirty && sending === null && !conflict && !broken && analysis.canEdit ? { revision, draft, reason } : null;
  }, [dirty, sending, conflict, broken, analysis.canEdit, revision, draft, reason]);
  useEffect(() => {
    closed.current = false;
    return () => {
      closed.current = true;
      const pending = unsaved.current;
      if (pending) {
        // Closed within the gathering pause: the change is sent now rather than lost.
        updateAnalysis(deviceId, projectId, analysis.id, pending.revision, {
          ...pending.draft,
          reason: pending.reason,
        }).then(
          (saved) => void mutate(analysisKey, saved, { revalidate: false }),
          () => void mutate(analysisKey),
        );
        return;
      }
      const saved = lastSaved.current;
      if (saved) void mutate(analysisKey, saved, { revalidate: false });
    };
  }, [mutate, deviceId, projectId, analysis.id, analysisKey]);

  // Saving: one request at a time, each on top of the revision the last one answered.
  useEffect(() => {
    if (!dirty || sending !== null || conflict || broken || !analysis.canEdit) return;
    const timer = setTimeout(() => {
      dispatch({ type: 'save-started' });
      updateAnalysis(deviceId, projectId, analysis.id, revision, { ...draft, reason }).then(
        (saved) => {
          dispatch({ type: 'saved', analysis: saved });
          lastSaved.current = saved;
          // A save still on its way when the page closed: the cache takes its revision.
          if (closed.current) void mutate(analysisKey, saved, { revalidate: false });
          // The list shows each analysis's parameters and exclusions.
          void mutate(analysisUrls.analyses(deviceId, projectId));
        },
        (error: unknown) => {
          const isConflict = error instanceof ApiError && error.status === 409;
          dispatch({ type: 'save-failed', conflict: isConflict });
          if (!isConflict) setBroken(true);
        },
      );
      // A short pause gathers quick clicks (several exclusions) into one save.
    }, 250);
    return () => clearTimeout(timer);
  }, [
    dirty,
    sending,
    conflict,
    broken,
    revision,
    draft,
    reason,
    deviceId,
    projectId,
    analysis.id,
    analysis.canEdit,
    analysisKey,
    mutate,
  ]);

  return { state, dispatch, matrix, rowOf, broken };
}
