import { designHistoryEndpoints, pathOf } from '@insilico/contracts';
import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';
import { parseNoData } from './scheduled-job';

const dataSchema = z.object({ exportId: z.uuid() });

export type DesignHistoryExportJobData = z.infer<typeof dataSchema>;

/** The address of an export job's file (its requester downloads it there; the notification links to it). */
export function designHistoryExportFilePath(deviceId: string, exportId: string): string {
  return pathOf(designHistoryEndpoints.exportFile, { deviceId, exportId });
}

/** The design history page showing an export job's file (the notification links to it; the page offers the download). */
export function designHistoryExportPagePath(exportId: string): string {
  return `/design-history?${new URLSearchParams({ export: exportId }).toString()}`;
}

/**
 * A large design history file (PDF or evidence ZIP): DesignHistoryExportService.request enqueues it with the
 * export's row and its `design_history.export_queued` event; design-history-export.performer.ts makes the file in the
 * CPU pool, stores it in the workspace's region and records `design_history.exported` with its SHA-256. Idempotent:
 * an export no longer queued is not made again.
 */
export const designHistoryExportJob: JobDescriptor<DesignHistoryExportJobData> = {
  kind: 'design-history.export',
  retryLimit: 2,
  expireInSeconds: 30 * 60,
  parse: (data) => dataSchema.parse(data),
};

/** Removes the files of exports kept longer than the retention (scheduled hourly by JobService). */
export const designHistoryExportExpiryJob: JobDescriptor<Record<string, never>> = {
  kind: 'design-history.export-expiry',
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  parse: parseNoData,
};
