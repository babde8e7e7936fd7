import useSWR from 'swr';
import {
  imagingCohortListSchema,
  imagingPatientSchema,
  roomSchema,
  type ImagingCohortList,
  type ImagingPatient,
  type Room,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import { trackAfter } from '../../lib/analytics';
import { roomsPath } from '../../lib/projectKeys';
import type { ApiError } from '../../lib/apiError';

/** URLs of the imaging cohorts of one project (issue 19): their patients and the delivered surfaces per phase. */
export const imagingPatientUrls = {
  cohorts: (deviceId: string, projectId: string) => `/api/devices/${deviceId}/projects/${projectId}/imaging-cohorts`,
  patient: (deviceId: string, projectId: string, datasetId: string, patientId: string) =>
    `${imagingPatientUrls.cohorts(deviceId, projectId)}/${datasetId}/patients/${encodeURIComponent(patientId)}`,
  mesh: (deviceId: string, projectId: string, datasetId: string, patientId: string, phase: string) =>
    `${imagingPatientUrls.patient(deviceId, projectId, datasetId, patientId)}/meshes/${encodeURIComponent(phase)}`,
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
  return apiFetch(roomsPath(deviceId, projectId), {
    method: 'POST',
    body: { imagingDatasetId: datasetId, patientId },
    schema: roomSchema,
  }).then(trackAfter('room created', (room) => ({ projectId, roomId: room.id })));
}
