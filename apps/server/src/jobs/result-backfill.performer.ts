import { defineJob } from './job-definition';
import { resultBackfillJob } from './result-backfill.job';

/** Keeps the missing results snapshots of work finished before migration 0027; names what it could not read. */
export const resultBackfillPerformer = defineJob(resultBackfillJob, async ({ data, services, log }) => {
  const report = await services.resultBackfill.run(new Date(data.before));
  for (const object of report.skipped)
    log.warn({ objectType: object.objectType, objectId: object.objectId }, 'results to backfill could not be read');
  return { kept: report.kept, skipped: report.skipped.length };
});
