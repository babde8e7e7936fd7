import useSWR from 'swr';
import {
  cohortEndpoints,
  measurementEndpoints as endpoints,
  measurementDefinitionListSchema,
  measurementDefinitionSchema,
  measurementOrderListSchema,
  measurementOrderSchema,
  pathOf,
  patientLandmarksSchema,
  ssmEndpoints,
  type MeasurementCorrection,
  type MeasurementDefinitionBody,
  type MeasurementDefinitionList,
  type MeasurementDefinitionView,
  type MeasurementOrder,
  type MeasurementOrderList,
  type PatientLandmarks,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** URLs of the measurement API of one workspace (issue 23). */
export const measurementUrls = {
  definitions: (deviceId: string) => pathOf(endpoints.definitions, { deviceId }),
  orders: (deviceId: string) => pathOf(endpoints.orders, { deviceId }),
  one: (deviceId: string, orderId: string) => pathOf(endpoints.order, { deviceId, orderId }),
  csv: (deviceId: string, orderId: string) => pathOf(endpoints.csv, { deviceId, orderId }),
};

/** While an order is measured the page follows it. */
const inProgressRefreshMs = 1500;

export function useMeasurementDefinitions(deviceId: string | null) {
  return useSWR<MeasurementDefinitionList, ApiError>(
    deviceId ? measurementUrls.definitions(deviceId) : null,
    (url: string) => apiFetch(url, { schema: measurementDefinitionListSchema }),
  );
}

export function useMeasurementOrders(deviceId: string | null) {
  return useSWR<MeasurementOrderList, ApiError>(
    deviceId ? measurementUrls.orders(deviceId) : null,
    (url: string) => apiFetch(url, { schema: measurementOrderListSchema }),
    {
      refreshInterval: (data) => (data?.items.some((o) => o.status === 'in_progress') ? inProgressRefreshMs : 0),
      dedupingInterval: inProgressRefreshMs - 500,
    },
  );
}

export function useMeasurementOrder(deviceId: string | null, orderId: string | null) {
  return useSWR<MeasurementOrder, ApiError>(
    deviceId && orderId ? measurementUrls.one(deviceId, orderId) : null,
    (url: string) => apiFetch(url, { schema: measurementOrderSchema }),
    {
      refreshInterval: (data) => (data?.status === 'in_progress' ? inProgressRefreshMs : 0),
      dedupingInterval: inProgressRefreshMs - 500,
    },
  );
}

export function createDefinition(
  deviceId: string,
  body: MeasurementDefinitionBody,
): Promise<MeasurementDefinitionView> {
  return apiCall(endpoints.createDefinition, { deviceId }, { body, schema: measurementDefinitionSchema });
}

/** A change of one of the workspace's definitions: its next version. */
export function reviseDefinition(
  deviceId: string,
  lineageId: string,
  body: MeasurementDefinitionBody,
): Promise<MeasurementDefinitionView> {
  return apiCall(
    endpoints.reviseDefinition,
    { deviceId, definitionId: lineageId },
    { body, schema: measurementDefinitionSchema },
  );
}

export function orderMeasurements(
  deviceId: string,
  cohortId: string,
  definitionIds: string[],
): Promise<MeasurementOrder> {
  return apiCall(
    endpoints.orderOnCohort,
    { deviceId, cohortId },
    { body: { definitionIds }, schema: measurementOrderSchema },
  );
}

/** An order on a shape model's mean and its named instances (the rooms saved on its shapes). */
export function orderMeasurementsOnShapes(
  deviceId: string,
  projectId: string,
  ssmId: string,
  definitionIds: string[],
): Promise<MeasurementOrder> {
  return apiCall(
    endpoints.orderOnShapes,
    { deviceId, projectId, ssmId },
    { body: { definitionIds }, schema: measurementOrderSchema },
  );
}

/** The landmarks of a shape of a project's shape model (mm, the model's frame). */
export function shapeLandmarks(
  deviceId: string,
  projectId: string,
  ssmId: string,
  instance: string,
): Promise<PatientLandmarks> {
  return apiCall(
    ssmEndpoints.shapeLandmarks,
    { deviceId, projectId, ssmId, instance },
    { schema: patientLandmarksSchema },
  );
}

/** The landmarks of one patient at one phase (the cohort API). */
export function patientLandmarks(
  deviceId: string,
  cohortId: string,
  patientId: string,
  phase: string,
): Promise<PatientLandmarks> {
  return apiCall(
    cohortEndpoints.landmarks,
    { deviceId, cohortId, patientId, phase },
    { schema: patientLandmarksSchema },
  );
}

/** Landmarks of one patient placed by hand: the patient's measurements at that phase are taken again. */
export function correctPatient(
  deviceId: string,
  orderId: string,
  patientId: string,
  body: MeasurementCorrection,
): Promise<MeasurementOrder> {
  return apiCall(endpoints.correct, { deviceId, orderId, patientId }, { body, schema: measurementOrderSchema });
}
