import { defineJob } from './job-definition';
import { imagingModelsJob, imagingModelsSweepJob } from './imaging-models.job';

/**
 * Checks delivered patient models in the CPU pool, then makes the dataset ready with its `imaging.models_delivered`
 * event (from which the uploader is told, services/job-notifications.ts), or removes the refused zip again; the
 * result holds the findings. Idempotent: a retry after the dataset became ready with these models changes nothing,
 * and the last failed attempt removes the stored zip.
 */
export const imagingModelsPerformer = defineJob(
  imagingModelsJob,
  async ({ data, attempt, signal, progress, services }) => {
    try {
      return await services.imagingQueue.checkDelivery(data, { progress, signal });
    } catch (error) {
      if (!signal.aborted && attempt > imagingModelsJob.retryLimit) await services.imagingQueue.abandonDelivery(data);
      throw error;
    }
  },
);

/** Removes models zips no delivery wants, past the grace period (hourly). */
export const imagingModelsSweepPerformer = defineJob(imagingModelsSweepJob, async ({ services }) =>
  services.imagingQueue.sweepUnwantedModels(new Date()),
);
