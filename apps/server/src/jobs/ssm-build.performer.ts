import { defineJob } from './job-definition';
import { ssmBuildJob } from './ssm-build.job';

/**
 * Building an SSM: meshes, alignment, modes and quality curves in the CPU pool, the model file in the data region,
 * then ready — with its `ssm.built` event, from which the creator is told (services/job-notifications.ts).
 * Idempotent: a model settled already (ready or failed) is not built again (nor recorded again), the file is written
 * under the SSM's own key.
 */
export const ssmBuildPerformer = defineJob(ssmBuildJob, async ({ data, attempt, signal, progress, services }) => {
  try {
    const ssm = await services.ssms.performBuild(data.ssmId, { progress, signal });
    if (!ssm) return { ssmId: data.ssmId, outcome: 'deleted' };
    // Failed at once when its configuration no longer holds (the reason is the SSM's error).
    if (ssm.status === 'failed') return { ssmId: ssm.id, outcome: 'failed' };
    await progress(1, 'Ready');
    return { ssmId: ssm.id, outcome: 'ready', shapes: ssm.shapeCount };
  } catch (error) {
    // The last attempt failed: the SSM stops showing "in progress" (`ssm.failed`: its creator hears why).
    if (!signal.aborted && attempt > ssmBuildJob.retryLimit)
      await services.ssms.failBuild(
        data.ssmId,
        'The shape model could not be built. Please create it again or contact support.',
      );
    throw error;
  }
});
