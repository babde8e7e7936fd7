import useSWR from 'swr';
import {
  imagingCohortListSchema,
  imagingPatientEndpoints as endpoints,
  imagingPatientSchema,
  pathOf,
  roomEndpoints,
  roomSchema,
  type ImagingCohortList,
  type ImagingPatient,
  type Room,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import { trackAfter } from '../../lib/analytics';
import type { ApiError } from '../../lib/apiError';

/** URLs of the imaging cohorts of one project (issue 19): their patients and the delivered surfaces per phase. */
export const imagingPatientUrls = {
  cohorts: (deviceId: string, projectId: string) => pathOf(endpoints.cohorts, { deviceId, projectId }),
  patient: (deviceId: string, projectId: string, datasetId: string, patientId: string) =>
    pathOf(endpoints.patient, { deviceId, projectId, datasetId, patientId }),
  mesh: (deviceId: string, projectId: string, datasetId: string, patientId: string, phase: string) =>
    pathOf(endpoints.mesh, { deviceId, projectId, datasetId, patientId, phase }),
};

/** The project's imaging cohorts with their patients (none while the models are being made). */
export function useImagingCohorts(deviceId: string | null, projectId: string | null) {
  return useSWR<ImagingCohortList, ApiError>(
    deviceId && projectId ? imagingPatientUrls.cohorts(deviceId, projectId) : null,
    (url: string) => apiFetch(url, { schema: imagingCohortListSchema }),
  );
}

export function useImagingPatient(
  deviceId: string | null,
  projectId: string | null,
  datasetId: string | null,
  patientId: string | null,
) {
  return useSWR<ImagingPatient, ApiError>(
    deviceId && projectId && datasetId && patientId
      ? imagingPatientUrls.patient(deviceId, projectId, datasetId, patientId)
      : null,
    (url: string) => apiFetch(url, { schema: imagingPatientSchema }),
  );
}

/** A room on the patient (the rooms API; the Rooms tab's dialog makes the same request). */
export function createImagingRoom(
  deviceId: string,
  projectId: string,
  datasetId: string,
  patientId: string,
): Promise<Room> {
  return apiCall(
    roomEndpoints.create,
    { deviceId, projectId },
    { body: { imagingDatasetId: datasetId, patientId }, schema: roomSchema },
  ).then(trackAfter('room created', (room) => ({ projectId, roomId: room.id })));
}
