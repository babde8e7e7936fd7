import { defineJob } from './job-definition';
import { measurementOrderJob } from './measurement-order.job';

/**
 * A measurement order: measures every patient of the cohort not measured yet (CPU pool) and marks the order ready —
 * with its `measurement.measured` event, from which the orderer is told (services/job-notifications.ts).
 * Idempotent: results are written per patient and skipped on a retry; a ready order records nothing again, and a
 * failed one stays failed.
 */
export const measurementOrderPerformer = defineJob(
  measurementOrderJob,
  async ({ data, attempt, signal, progress, services }) => {
    try {
      const order = await services.measurements.performOrder(data.orderId, { progress, signal });
      if (!order) return { orderId: data.orderId, outcome: 'deleted' };
      // A job finding the order failed already (a stale retry) leaves it failed.
      if (order.status === 'failed') return { orderId: order.id, outcome: 'failed' };
      await progress(1, 'Ready');
      return { orderId: order.id, outcome: 'ready' };
    } catch (error) {
      if (!signal.aborted && attempt > measurementOrderJob.retryLimit)
        await services.measurements.failOrder(
          data.orderId,
          'The measurements could not be taken. Please order them again or contact support.',
        );
      throw error;
    }
  },
);
