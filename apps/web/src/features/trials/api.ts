import { useEffect } from 'react';
import useSWR from 'swr';
import {
  pathOf,
  trialDetailSchema,
  trialEndpoints as endpoints,
  trialListSchema,
  trialOutcomeColumnsSchema,
  trialReportListSchema,
  trialReportSchema,
  trialSetupSchema,
  type CreateTrial,
  type ReplaceCustomOutcomes,
  type RerunTrial,
  type RetryTrial,
  type Trial,
  type TrialDetail,
  type TrialList,
  type TrialOutcomeColumns,
  type TrialReport,
  type TrialReportList,
  type TrialSetup,
  type UpdateTrial,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/**
 * URLs of the trial API of one project (docs/decisions/trials.md; the definitions are `trialEndpoints` of the
 * contracts); the GET URLs are SWR keys too.
 */
export const trialUrls = {
  list: (deviceId: string, projectId: string) => pathOf(endpoints.list, { deviceId, projectId }),
  setup: (deviceId: string, projectId: string) => pathOf(endpoints.setup, { deviceId, projectId }),
  one: (deviceId: string, projectId: string, trialId: string) =>
    pathOf(endpoints.get, { deviceId, projectId, trialId }),
  outcomes: (deviceId: string, projectId: string, trialId: string) =>
    pathOf(endpoints.outcomes, { deviceId, projectId, trialId }),
  csv: (deviceId: string, projectId: string, trialId: string) =>
    pathOf(endpoints.outcomesCsv, { deviceId, projectId, trialId }),
  reports: (deviceId: string, projectId: string, trialId: string) =>
    pathOf(endpoints.reports, { deviceId, projectId, trialId }),
};

/** The trial page's address (`device` lets a link opened in another workspace find the project). */
export function trialPath(deviceId: string, projectId: string, trialId: string): string {
  return `/projects/trial?${new URLSearchParams({ project: projectId, trial: trialId, device: deviceId }).toString()}`;
}

/** While a trial runs its views ask again this often (SWR's own polling is deduplicated within spec §7's 60 s). */
export const trialRefreshMs = 2000;

function usePolling(active: boolean, mutate: () => unknown) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void mutate(), trialRefreshMs);
    return () => clearInterval(timer);
  }, [active, mutate]);
}

/**
 * A trial is still moving while it runs or while any patient is queued or running: a cancelled trial's running patient
 * goes on until its run stops, and the page must show it end.
 */
export function isTrialMoving(trial: Pick<Trial, 'status' | 'counts'>): boolean {
  return trial.status === 'running' || trial.counts.running + trial.counts.queued > 0;
}

export function useTrials(deviceId: string, projectId: string) {
  const list = useSWR<TrialList, ApiError>(trialUrls.list(deviceId, projectId), (url: string) =>
    apiFetch(url, { schema: trialListSchema }),
  );
  usePolling(list.data?.items.some(isTrialMoving) ?? false, list.mutate);
  return list;
}

export function useTrial(deviceId: string | null, projectId: string | null, trialId: string | null) {
  const trial = useSWR<TrialDetail, ApiError>(
    deviceId && projectId && trialId ? trialUrls.one(deviceId, projectId, trialId) : null,
    (url: string) => apiFetch(url, { schema: trialDetailSchema }),
  );
  const reading = trial.data?.outcomeRefresh?.status === 'queued' || trial.data?.outcomeRefresh?.status === 'running';
  usePolling((trial.data ? isTrialMoving(trial.data) : false) || reading, trial.mutate);
  return trial;
}

/** The trial's outcomes of the user's own as they should be (kept by key; no key: new); changed ones are read again. */
export function replaceCustomOutcomes(
  deviceId: string,
  projectId: string,
  trialId: string,
  body: ReplaceCustomOutcomes,
): Promise<TrialDetail> {
  return apiCall(
    endpoints.replaceCustomOutcomes,
    { deviceId, projectId, trialId },
    { body, schema: trialDetailSchema },
  );
}

export function useTrialSetup(deviceId: string, projectId: string, open: boolean) {
  return useSWR<TrialSetup, ApiError>(open ? trialUrls.setup(deviceId, projectId) : null, (url: string) =>
    apiFetch(url, { schema: trialSetupSchema }),
  );
}

export function createTrial(deviceId: string, projectId: string, body: CreateTrial): Promise<TrialDetail> {
  return apiCall(endpoints.create, { deviceId, projectId }, { body, schema: trialDetailSchema });
}

export function cancelTrial(deviceId: string, projectId: string, trialId: string): Promise<TrialDetail> {
  return apiCall(endpoints.cancel, { deviceId, projectId, trialId }, { body: {}, schema: trialDetailSchema });
}

export function retryTrial(
  deviceId: string,
  projectId: string,
  trialId: string,
  body: RetryTrial,
): Promise<TrialDetail> {
  return apiCall(endpoints.retry, { deviceId, projectId, trialId }, { body, schema: trialDetailSchema });
}

export function rerunTrial(
  deviceId: string,
  projectId: string,
  trialId: string,
  body: RerunTrial,
): Promise<TrialDetail> {
  return apiCall(endpoints.rerun, { deviceId, projectId, trialId }, { body, schema: trialDetailSchema });
}

/** A trial's outcomes as cohort parameters (the population analysis adds them to its table). */
export function fetchTrialOutcomes(deviceId: string, projectId: string, trialId: string): Promise<TrialOutcomeColumns> {
  return apiCall(endpoints.outcomes, { deviceId, projectId, trialId }, { schema: trialOutcomeColumnsSchema });
}

/**
 * An SSM trial's population view (its instances' mode scores and each outcome's figures over them), read again when
 * the trial's outcomes or criteria change (`version`). Null key for a cohort trial: its population view is the
 * population analysis.
 */
export function useTrialPopulation(deviceId: string, trial: TrialDetail, version: string) {
  return useSWR<TrialOutcomeColumns, ApiError>(
    trial.ssm ? [trialUrls.outcomes(deviceId, trial.projectId, trial.id), version] : null,
    ([url]: [string, string]) => apiFetch(url, { schema: trialOutcomeColumnsSchema }),
  );
}

/** Deletes the trial (its running runs are cancelled; its rooms stay). */
export function deleteTrial(deviceId: string, projectId: string, trialId: string): Promise<void> {
  return apiCall(endpoints.remove, { deviceId, projectId, trialId });
}

/** Acceptance criteria and the automatic re-run switch. */
export function updateTrial(
  deviceId: string,
  projectId: string,
  trialId: string,
  body: UpdateTrial,
): Promise<TrialDetail> {
  return apiCall(endpoints.update, { deviceId, projectId, trialId }, { body, schema: trialDetailSchema });
}

/** The trial's reports; asked again while one is being made. */
export function useTrialReports(deviceId: string, projectId: string, trialId: string) {
  const reports = useSWR<TrialReportList, ApiError>(trialUrls.reports(deviceId, projectId, trialId), (url: string) =>
    apiFetch(url, { schema: trialReportListSchema }),
  );
  usePolling(reports.data?.items.some((r) => r.status === 'queued') ?? false, reports.mutate);
  return reports;
}

export function requestTrialReport(deviceId: string, projectId: string, trialId: string): Promise<TrialReport> {
  return apiCall(endpoints.requestReport, { deviceId, projectId, trialId }, { body: {}, schema: trialReportSchema });
}
