import useSWR from 'swr';
import {
  analysisEndpoints as endpoints,
  analysisListSchema,
  analysisSchema,
  cohortEndpoints,
  cohortParameterTableSchema,
  imagingPatientEndpoints,
  pathOf,
  projectEndpoints,
  projectListSchema,
  roomEndpoints,
  roomSchema,
  type Analysis,
  type AnalysisList,
  type AnalysisSummary,
  type CohortParameterTable,
  type CreateAnalysis,
  type CreateRoom,
  type ProjectList,
  type UpdateAnalysis,
  trialListSchema,
  type TrialOutcomeColumns,
  measurementOrderListSchema,
  measurementOrderSchema,
  type MeasurementOrder,
  representativenessSchema,
  type Representativeness,
  type RepresentativenessRequest,
  type AnalysisReportRequest,
} from '@insilico/contracts';
import { apiCall, apiFetch, apiPostForFile } from '../../lib/api';
import { track } from '../../lib/analytics';
import { saveBlob } from './exports';
import { ApiError } from '../../lib/apiError';
import { fetchTrialOutcomes, trialUrls } from '../trials';
import { measurementUrls } from '../measurements';
import { readyOrdersOn } from './measurementColumns';

/** URLs the population analysis page calls. */
export const analysisUrls = {
  projects: (deviceId: string) => pathOf(projectEndpoints.list, { deviceId }),
  analyses: (deviceId: string, projectId: string) => pathOf(endpoints.list, { deviceId, projectId }),
  analysis: (deviceId: string, projectId: string, analysisId: string) =>
    pathOf(endpoints.get, { deviceId, projectId, analysisId }),
  parameterTable: (deviceId: string, cohortId: string) => pathOf(cohortEndpoints.parameters, { deviceId, cohortId }),
  /** An imaging cohort's delivered patients with what was measured on them (issue 19). */
  imagingParameterTable: (deviceId: string, projectId: string, datasetId: string) =>
    pathOf(imagingPatientEndpoints.parameters, { deviceId, projectId, datasetId }),
};

export function useAnalysisProjects(deviceId: string | null) {
  return useSWR<ProjectList, ApiError>(deviceId ? analysisUrls.projects(deviceId) : null, (url: string) =>
    apiFetch(url, { schema: projectListSchema }),
  );
}

export function useProjectAnalyses(deviceId: string | null, projectId: string | null) {
  return useSWR<AnalysisList, ApiError>(
    deviceId && projectId ? analysisUrls.analyses(deviceId, projectId) : null,
    (url: string) => apiFetch(url, { schema: analysisListSchema }),
  );
}

export function useAnalysis(deviceId: string | null, projectId: string | null, analysisId: string | null) {
  return useSWR<Analysis, ApiError>(
    deviceId && projectId && analysisId ? analysisUrls.analysis(deviceId, projectId, analysisId) : null,
    (url: string) => apiFetch(url, { schema: analysisSchema }),
    // The page holds the draft; a refetch would only race with its saves.
    { revalidateIfStale: false, revalidateOnReconnect: false },
  );
}

/** The patients of an analysis' cohort as columns: a virtual cohort's, or an imaging cohort's of the project. */
export function useParameterTable(
  deviceId: string | null,
  projectId: string | null,
  cohort: Pick<AnalysisSummary['cohort'], 'id' | 'source'> | null,
) {
  const url =
    !deviceId || !cohort
      ? null
      : cohort.source === 'imaging'
        ? projectId && analysisUrls.imagingParameterTable(deviceId, projectId, cohort.id)
        : analysisUrls.parameterTable(deviceId, cohort.id);
  return useSWR<CohortParameterTable, ApiError>(url || null, (at: string) =>
    apiFetch(at, { schema: cohortParameterTableSchema }),
  );
}

/** The outcomes of the project's trials on the cohort (issue 17), each as columns in the cohort's patient order. */
export function useTrialOutcomeColumns(deviceId: string | null, projectId: string | null, cohortId: string | null) {
  return useSWR<TrialOutcomeColumns[], ApiError>(
    deviceId && projectId && cohortId ? [trialUrls.list(deviceId, projectId), 'outcomes', cohortId] : null,
    async ([url]: [string, string, string]) => {
      const trials = (await apiFetch(url, { schema: trialListSchema })).items.filter((t) => t.cohort?.id === cohortId);
      return Promise.all(trials.map((t) => fetchTrialOutcomes(deviceId!, projectId!, t.id)));
    },
  );
}

export function createAnalysis(deviceId: string, projectId: string, body: CreateAnalysis): Promise<Analysis> {
  return apiCall(endpoints.create, { deviceId, projectId }, { body, schema: analysisSchema });
}

/** Saves a change on top of `revision` (the server answers 409 when it moved on). */
export function updateAnalysis(
  deviceId: string,
  projectId: string,
  analysisId: string,
  revision: number,
  change: Omit<UpdateAnalysis, 'revision'>,
): Promise<Analysis> {
  return apiCall(
    endpoints.update,
    { deviceId, projectId, analysisId },
    { body: { ...change, revision }, schema: analysisSchema },
  );
}

/**
 * Opens a room on a patient of one of the project's cohorts, virtual or imaging (the Rooms API); answers the room's
 * id.
 */
export async function openRoom(
  deviceId: string,
  projectId: string,
  cohort: Pick<AnalysisSummary['cohort'], 'id' | 'source'>,
  patientId: string,
) {
  const body: CreateRoom =
    cohort.source === 'imaging' ? { imagingDatasetId: cohort.id, patientId } : { cohortId: cohort.id, patientId };
  const room = await apiCall(roomEndpoints.create, { deviceId, projectId }, { body, schema: roomSchema });
  return room.id;
}

/**
 * The workspace's ready measurement orders on the cohort with their results (issue 23 item 3). A workspace whose
 * plan lacks measurements, or a guest (who may not use them), has none: the analysis goes on without them.
 */
export function useMeasurementOrdersOn(deviceId: string | null, cohortId: string | null) {
  return useSWR<MeasurementOrder[], ApiError>(
    deviceId && cohortId ? [measurementUrls.orders(deviceId), 'analysis', cohortId] : null,
    async ([url]: [string, string, string]) => {
      try {
        const ready = readyOrdersOn(await apiFetch(url, { schema: measurementOrderListSchema }), cohortId!);
        return await Promise.all(
          ready.map((order) => apiFetch(measurementUrls.one(deviceId!, order.id), { schema: measurementOrderSchema })),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return [];
        throw error;
      }
    },
  );
}

/** Compares the analysis' cohort with a reference population (issue 23); the server checks the reference. */
export function compareWithReference(
  deviceId: string,
  projectId: string,
  analysisId: string,
  body: RepresentativenessRequest,
): Promise<Representativeness> {
  return apiCall(
    endpoints.representativeness,
    { deviceId, projectId, analysisId },
    { body, schema: representativenessSchema },
  );
}

/**
 * The population analysis report as PDF (issue 23), made by the server from the saved analysis; with a reference
 * population it includes the comparison with it. Saved as a download under the server's file name.
 */
export async function downloadAnalysisReport(
  deviceId: string,
  projectId: string,
  analysisId: string,
  body: AnalysisReportRequest,
): Promise<void> {
  const { blob, fileName } = await apiPostForFile(pathOf(endpoints.report, { deviceId, projectId, analysisId }), body);
  saveBlob(fileName ?? 'analysis-report.pdf', blob);
  track('analysis exported', { format: 'pdf' });
}
