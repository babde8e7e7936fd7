import { defineJob } from './job-definition';
import { cohortOrderJob, cohortPagePath } from './cohort-order.job';

/**
 * A cohort order: draws the reproducible stratified sample, prepares every phase's meshes in storage, marks the
 * cohort ready and tells the orderer. Idempotent: the sample and the cached meshes are kept across attempts and
 * the notification is keyed by cohort, so a retried run finishes the work without repeating it.
 */
export const cohortOrderPerformer = defineJob(cohortOrderJob, async ({ data, attempt, signal, progress, services }) => {
  try {
    const cohort = await services.cohorts.prepareOrder(data.cohortId, { progress, signal });
    if (!cohort) return { cohortId: data.cohortId, outcome: 'deleted' };
    await progress(1, 'Ready');
    await services.notifications.post({
      userId: data.userId,
      kind: 'cohort.ready',
      title: `Cohort ${cohort.name} is ready`,
      body: `Its ${cohort.size} synthetic patients and their anatomy can be viewed now.`,
      link: cohortPagePath(cohort.deviceId, cohort.id),
      dedupeKey: `cohort-ready:${cohort.id}`,
    });
    return { cohortId: cohort.id, outcome: 'ready', patients: cohort.size };
  } catch (error) {
    // The last attempt failed: the cohort stops showing "in progress" and the orderer hears why.
    if (!signal.aborted && attempt > cohortOrderJob.retryLimit) {
      const cohort = await services.cohorts.failOrder(
        data.cohortId,
        'The patients could not be prepared. Please order the cohort again or contact support.',
      );
      if (cohort)
        await services.notifications.post({
          userId: data.userId,
          kind: 'cohort.failed',
          title: `Cohort ${cohort.name} could not be prepared`,
          body: 'Please order it again, or contact support if this happens again.',
          link: cohortPagePath(cohort.deviceId, cohort.id),
          dedupeKey: `cohort-failed:${cohort.id}`,
        });
    }
    throw error;
  }
});
