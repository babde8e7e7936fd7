import { useCallback, useMemo } from 'react';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import {
  designHistoryAttachmentSchema,
  designHistoryEndpoints as endpoints,
  designHistoryEntrySchema,
  designHistoryExportListSchema,
  designHistoryExportSchema,
  designHistoryListSchema,
  reauthenticationSchema,
  signatureSchema,
  type DesignHistoryAttachment,
  type DesignHistoryEntry,
  type DesignHistoryExport,
  type DesignHistoryExportList,
  type DesignHistoryFileRequest,
  type DesignHistoryList,
  type DesignHistorySection,
  type NewDesignHistoryEntry,
  pathOf,
  type Reauthentication,
  type ReauthenticationRequest,
  type Signature,
  type SignRequest,
} from '@insilico/contracts';
import { apiCall, apiFetch, apiPostForFile } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** The timeline's filters as the page keeps them in its address (empty: all). */
export interface DesignHistoryFilters {
  projectId: string;
  section: DesignHistorySection | '';
}

export const pageSize = 25;

export function designHistoryUrl(deviceId: string, filters: DesignHistoryFilters, before: number | null): string {
  return pathOf(
    endpoints.list,
    { deviceId },
    { limit: pageSize, projectId: filters.projectId || null, section: filters.section || null, before },
  );
}

/** The CSV export of what the filters show (its project, or every project the caller sees). */
export function designHistoryExportUrl(deviceId: string, projectId: string): string {
  return pathOf(endpoints.exportCsv, { deviceId }, { projectId: projectId || null });
}

const fetchPage = (url: string) => apiFetch(url, { schema: designHistoryListSchema });

/** The design history timeline, newest first, paged ("Show older"). */
export function useDesignHistory(deviceId: string | null, filters: DesignHistoryFilters) {
  const getKey = useCallback(
    (index: number, previous: DesignHistoryList | null) => {
      if (!deviceId) return null;
      if (index === 0) return designHistoryUrl(deviceId, filters, null);
      return previous?.nextBefore ? designHistoryUrl(deviceId, filters, previous.nextBefore) : null;
    },
    [deviceId, filters],
  );
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<DesignHistoryList, ApiError>(
    getKey,
    fetchPage,
    { revalidateAll: true },
  );
  const items = useMemo(() => data?.flatMap((page) => page.items) ?? [], [data]);
  return {
    items,
    first: data?.[0] ?? null,
    error,
    isLoading,
    isLoadingMore: isValidating && data !== undefined && size > data.length,
    hasMore: Boolean(data?.[data.length - 1]?.nextBefore),
    loadMore: () => void setSize((current) => current + 1),
    refresh: () => void mutate(),
  };
}

export function addDesignHistoryEntry(deviceId: string, body: NewDesignHistoryEntry): Promise<DesignHistoryEntry> {
  return apiCall(endpoints.addEntry, { deviceId }, { body, schema: designHistoryEntrySchema });
}

/** Attaches a file to an entry nobody has signed (the file as the body; the server keeps it by its SHA-256). */
export function attachFile(deviceId: string, entryId: string, file: File): Promise<DesignHistoryAttachment> {
  return apiFetch(pathOf(endpoints.attach, { deviceId, entryId }, { name: file.name }), {
    method: endpoints.attach.method,
    file,
    schema: designHistoryAttachmentSchema,
  });
}

/** Attaches a finished resumable upload (a file above the one-request limit); the server checks its size and hash. */
export function attachUploaded(deviceId: string, entryId: string, uploadId: string): Promise<DesignHistoryAttachment> {
  return apiCall(
    endpoints.attachUpload,
    { deviceId, entryId },
    { body: { uploadId }, schema: designHistoryAttachmentSchema },
  );
}

export function signRecord(deviceId: string, body: SignRequest): Promise<Signature> {
  return apiCall(endpoints.sign, { deviceId }, { body, schema: signatureSchema });
}

/**
 * With an external identity provider: begins a signing and answers the provider's address, where the signer signs in
 * again; the provider sends the browser back through the app's callback, which signs and returns to `returnTo`.
 */
export function beginIssuerSigning(deviceId: string, body: ReauthenticationRequest): Promise<Reauthentication> {
  return apiCall(endpoints.beginIssuerSigning, { deviceId }, { body, schema: reauthenticationSchema });
}

/**
 * The design history file as PDF or evidence ZIP, made by the server (and recorded in its audit trail): the file at
 * once for a small history, or the export queued as a job for a large one (the server answers 202 with it).
 */
export async function exportDesignHistoryFile(
  deviceId: string,
  body: DesignHistoryFileRequest,
): Promise<{ kind: 'file'; blob: Blob; fileName: string | null } | { kind: 'queued'; export: DesignHistoryExport }> {
  const file = await apiPostForFile(pathOf(endpoints.requestFile, { deviceId }), body);
  if (file.blob.type.startsWith('application/json'))
    return { kind: 'queued', export: designHistoryExportSchema.parse(JSON.parse(await file.blob.text())) };
  return { kind: 'file', ...file };
}

const exportRefreshMs = 2000;

/** The user's design history files made by a job, followed while one is being made. */
export function useDesignHistoryExports(deviceId: string | null) {
  return useSWR<DesignHistoryExportList, ApiError>(
    deviceId ? pathOf(endpoints.exports, { deviceId }) : null,
    (url: string) => apiFetch(url, { schema: designHistoryExportListSchema }),
    {
      refreshInterval: (data) => (data?.items.some((item) => item.status === 'queued') ? exportRefreshMs : 0),
      // The app dedupes for 60 s (spec §7); following needs each tick to reach the server.
      dedupingInterval: exportRefreshMs - 500,
    },
  );
}
