import { defineJob } from './job-definition';
import { measurementOrderJob, measurementOrderPagePath } from './measurement-order.job';

/**
 * A measurement order: measures every patient of the cohort not measured yet (CPU pool), marks the order ready
 * and tells the orderer. Idempotent: results are written per patient and skipped on a retry, the notification is
 * keyed by order.
 */
export const measurementOrderPerformer = defineJob(
  measurementOrderJob,
  async ({ data, attempt, signal, progress, services }) => {
    try {
      const order = await services.measurements.performOrder(data.orderId, { progress, signal });
      if (!order) return { orderId: data.orderId, outcome: 'deleted' };
      await progress(1, 'Ready');
      await services.notifications.post({
        userId: data.userId,
        kind: 'measurement.ready',
        title: `Measurements of cohort ${order.cohortName} are ready`,
        body: `${order.measurements} measurements on ${order.patients} patients can be viewed now.`,
        link: measurementOrderPagePath(order.deviceId, order.id),
        dedupeKey: `measurement-ready:${order.id}`,
      });
      return { orderId: order.id, outcome: 'ready' };
    } catch (error) {
      if (!signal.aborted && attempt > measurementOrderJob.retryLimit) {
        const order = await services.measurements.failOrder(
          data.orderId,
          'The measurements could not be taken. Please order them again or contact support.',
        );
        if (order)
          await services.notifications.post({
            userId: data.userId,
            kind: 'measurement.failed',
            title: `Measurements of cohort ${order.cohortName} could not be taken`,
            body: 'Please order them again, or contact support if this happens again.',
            link: measurementOrderPagePath(order.deviceId, order.id),
            dedupeKey: `measurement-failed:${order.id}`,
          });
      }
      throw error;
    }
  },
);
