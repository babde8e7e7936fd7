import { defineJob } from './job-definition';
import { cohortOrderJob } from './cohort-order.job';

/**
 * A cohort order: draws the reproducible stratified sample, prepares every phase's meshes in storage and marks the
 * cohort ready — with its `cohort.prepared` event, from which the orderer is told (services/job-notifications.ts).
 * Idempotent: the sample and the cached meshes are kept across attempts, and a cohort settled already (ready or
 * failed) records nothing.
 */
export const cohortOrderPerformer = defineJob(cohortOrderJob, async ({ data, attempt, signal, progress, services }) => {
  try {
    const cohort = await services.cohorts.prepareOrder(data.cohortId, { progress, signal });
    if (!cohort) return { cohortId: data.cohortId, outcome: 'deleted' };
    // Failed for good already (a stale or retried job): left as it is.
    if (cohort.status === 'failed') return { cohortId: cohort.id, outcome: 'failed' };
    await progress(1, 'Ready');
    return { cohortId: cohort.id, outcome: 'ready', patients: cohort.size };
  } catch (error) {
    // The last attempt failed: the cohort stops showing "in progress" (`cohort.failed`: the orderer hears why).
    if (!signal.aborted && attempt > cohortOrderJob.retryLimit)
      await services.cohorts.failOrder(
        data.cohortId,
        'The patients could not be prepared. Please order the cohort again or contact support.',
      );
    throw error;
  }
});
