import { defineJob } from './job-definition';
import { imagingCheckJob } from './imaging-check.job';

/**
 * Re-checks an uploaded imaging dataset in the CPU pool, then accepted (modelling) or refused with the findings —
 * with its `imaging.dataset_checked` event, from which the uploader is told (services/job-notifications.ts).
 * Idempotent: only a dataset still being checked changes (and is recorded).
 */
export const imagingCheckPerformer = defineJob(imagingCheckJob, async ({ data, signal, progress, services }) => {
  const dataset = await services.imaging.check(data.datasetId, { progress, signal });
  if (!dataset) return { datasetId: data.datasetId, outcome: 'deleted' };
  return { datasetId: dataset.id, outcome: dataset.status };
});
