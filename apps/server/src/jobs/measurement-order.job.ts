import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ orderId: z.uuid(), userId: z.uuid() });

export type MeasurementOrderData = z.infer<typeof dataSchema>;

/** The web page of an order's results (the notification links to it). */
export function measurementOrderPagePath(deviceId: string, orderId: string): string {
  return `/measurement/order?order=${orderId}&device=${deviceId}`;
}

/** An order of measurements on a cohort (MeasurementService enqueues it; the performer does the work). */
export const measurementOrderJob: JobDescriptor<MeasurementOrderData> = {
  kind: 'measurement.order',
  retryLimit: 3,
  expireInSeconds: 30 * 60,
  parse: (data) => dataSchema.parse(data),
};
