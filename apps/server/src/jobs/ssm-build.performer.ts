import { defineJob } from './job-definition';
import { ssmBuildJob, ssmPagePath } from './ssm-build.job';

/**
 * Building an SSM: meshes, alignment, modes and quality curves in the CPU pool, the model file in the data region,
 * then ready and a notification. Idempotent: a ready model is not rebuilt, the file is written under the SSM's own
 * key, and the notification is keyed by SSM.
 */
export const ssmBuildPerformer = defineJob(ssmBuildJob, async ({ data, attempt, signal, progress, services }) => {
  try {
    const ssm = await services.ssms.performBuild(data.ssmId, { progress, signal });
    if (!ssm) return { ssmId: data.ssmId, outcome: 'deleted' };
    await progress(1, 'Ready');
    await services.notifications.post({
      userId: data.userId,
      kind: 'ssm.ready',
      title: `SSM ${ssm.name} is ready`,
      body: `Its modes and quality measures from ${ssm.shapeCount} patients can be viewed now.`,
      link: ssmPagePath(ssm.deviceId, ssm.projectId, ssm.id),
      dedupeKey: `ssm-ready:${ssm.id}`,
    });
    return { ssmId: ssm.id, outcome: 'ready', shapes: ssm.shapeCount };
  } catch (error) {
    // The last attempt failed: the SSM stops showing "in progress" and its creator hears why.
    if (!signal.aborted && attempt > ssmBuildJob.retryLimit) {
      const ssm = await services.ssms.failBuild(
        data.ssmId,
        'The shape model could not be built. Please create it again or contact support.',
      );
      if (ssm)
        await services.notifications.post({
          userId: data.userId,
          kind: 'ssm.failed',
          title: `SSM ${ssm.name} could not be built`,
          body: 'Please create it again, or contact support if this happens again.',
          link: ssmPagePath(ssm.deviceId, ssm.projectId, ssm.id),
          dedupeKey: `ssm-failed:${ssm.id}`,
        });
    }
    throw error;
  }
});
