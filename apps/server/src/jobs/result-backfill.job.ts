import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({
  /** The start of the server that asked: work created since keeps its snapshot at its finish. */
  before: z.iso.datetime(),
});

export type ResultBackfillData = z.infer<typeof dataSchema>;

/**
 * Results snapshots for work finished before migration 0027 (services/result-backfill.ts); enqueued at each start by
 * JobService, idempotent (a second run finds nothing to do).
 */
export const resultBackfillJob: JobDescriptor<ResultBackfillData> = {
  kind: 'results.backfill',
  retryLimit: 3,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
