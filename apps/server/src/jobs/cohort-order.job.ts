import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ cohortId: z.uuid(), userId: z.uuid() });

export type CohortOrderData = z.infer<typeof dataSchema>;

/** The web page of a cohort (the notification links to it). */
export function cohortPagePath(deviceId: string, cohortId: string): string {
  return `/patient-cohort/cohorts/${cohortId}?device=${deviceId}`;
}

/** A cohort order (CohortService enqueues it; cohort-order.performer.ts does the work). */
export const cohortOrderJob: JobDescriptor<CohortOrderData> = {
  kind: 'cohort.order',
  retryLimit: 3,
  expireInSeconds: 30 * 60,
  parse: (data) => dataSchema.parse(data),
};
