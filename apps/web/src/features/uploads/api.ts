import useSWR from 'swr';
import {
  imagingModelsDeliverySchema,
  imagingQueueSchema,
  type ImagingModelsDelivery,
  type ImagingQueue,
  imagingDatasetListSchema,
  imagingDatasetSchema,
  type CreateImagingDataset,
  type ImagingDataset,
  type ImagingDatasetList,
  imagingEndpoints as endpoints,
  pathOf,
  uploadEndpoints,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** URLs of the imaging API of one workspace. */
export const imagingUrls = {
  datasets: (deviceId: string) => pathOf(endpoints.list, { deviceId }),
  one: (deviceId: string, datasetId: string) => pathOf(endpoints.get, { deviceId, datasetId }),
  file: (deviceId: string, datasetId: string) => pathOf(endpoints.file, { deviceId, datasetId }),
  /** The tus endpoint uploads are created at (its answer's Location is the upload's own path). */
  uploads: (deviceId: string) => pathOf(uploadEndpoints.create, { deviceId }),
  queue: (status: 'modelling' | 'ready') => pathOf(endpoints.queue, {}, { status }),
  download: (datasetId: string) => pathOf(endpoints.download, { datasetId }),
};

export function createImagingDataset(deviceId: string, body: CreateImagingDataset): Promise<ImagingDataset> {
  return apiCall(endpoints.create, { deviceId }, { body, schema: imagingDatasetSchema });
}

const checkingRefreshMs = 1500;

/** One dataset, followed while the server re-checks it. */
export function useImagingDataset(deviceId: string | null, datasetId: string | null) {
  return useSWR<ImagingDataset, ApiError>(
    deviceId && datasetId ? imagingUrls.one(deviceId, datasetId) : null,
    (url: string) => apiFetch(url, { schema: imagingDatasetSchema }),
    {
      refreshInterval: (data) => (data?.status === 'checking' ? checkingRefreshMs : 0),
      // The app dedupes for 60 s (spec §7); following needs each tick to reach the server.
      dedupingInterval: checkingRefreshMs - 500,
    },
  );
}

/** The workspace's imaging datasets, followed while any is being checked. */
export function useImagingDatasets(deviceId: string | null) {
  return useSWR<ImagingDatasetList, ApiError>(
    deviceId ? imagingUrls.datasets(deviceId) : null,
    (url: string) => apiFetch(url, { schema: imagingDatasetListSchema }),
    {
      refreshInterval: (data) => (data?.items.some((d) => d.status === 'checking') ? checkingRefreshMs : 0),
      dedupingInterval: checkingRefreshMs - 500,
    },
  );
}

/** The support staff's modelling queue (403 for anybody else). */
export function useImagingQueue(status: 'modelling' | 'ready') {
  return useSWR<ImagingQueue, ApiError>(
    imagingUrls.queue(status),
    (url: string) => apiFetch(url, { schema: imagingQueueSchema }),
    // Polled while a delivery of models is being checked (its job's progress, then its outcome).
    {
      refreshInterval: (data) =>
        data?.items.some((item) => item.delivery?.status === 'pending') ? checkingRefreshMs : 0,
      dedupingInterval: checkingRefreshMs - 500,
    },
  );
}

/** Delivers the patient models of a dataset (the .zip as the body): stored, their check queued (pending). */
export function deliverImagingModels(datasetId: string, zip: File): Promise<ImagingModelsDelivery> {
  return apiCall(endpoints.deliverModels, { datasetId }, { file: zip, schema: imagingModelsDeliverySchema });
}
