import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { PostNotification } from '../services/notification.service';
import type { JobContext, JobServices } from './job-definition';
import type { MeasurementOrderData } from './measurement-order.job';
import { measurementOrderPerformer } from './measurement-order.performer';

const data: MeasurementOrderData = {
  orderId: '2f6c1a8e-8d4b-4c1e-9f0a-3b5d7e9c1a20',
  userId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
};
const performed = {
  id: data.orderId,
  deviceId: '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11',
  cohortName: 'Tall women',
  measurements: 21,
  patients: 20,
  status: 'ready' as const,
};

function contextWith(performOrder: () => Promise<unknown>, attempt: number) {
  const posted: PostNotification[] = [];
  const failOrder = vi.fn(async () => performed);
  const services = {
    notifications: { post: async (input: PostNotification) => void posted.push(input) },
    measurements: { performOrder, failOrder },
  } as unknown as JobServices;
  const context: JobContext<MeasurementOrderData> = {
    jobId: 'job-1',
    data,
    attempt,
    signal: new AbortController().signal,
    progress: async () => undefined,
    services,
    log: pino({ level: 'silent' }),
  };
  return { context, posted, failOrder };
}

describe('measurement order job', () => {
  it('answers the outcome and posts nothing itself (the orderer hears of it from the measurement.measured event)', async () => {
    const { context, posted } = contextWith(async () => performed, 1);
    expect(await measurementOrderPerformer.perform(context)).toEqual({ orderId: data.orderId, outcome: 'ready' });
    expect(posted).toEqual([]);
  });

  it('answers failed, with nothing posted, when a stale job finds the order failed already', async () => {
    const { context, posted } = contextWith(async () => ({ ...performed, status: 'failed' as const }), 1);
    expect(await measurementOrderPerformer.perform(context)).toEqual({ orderId: data.orderId, outcome: 'failed' });
    expect(posted).toEqual([]);
  });

  it('ends quietly when the order or its cohort was deleted meanwhile', async () => {
    const { context, posted } = contextWith(async () => null, 1);
    expect(await measurementOrderPerformer.perform(context)).toEqual({ orderId: data.orderId, outcome: 'deleted' });
    expect(posted).toEqual([]);
  });

  it('keeps the order in progress while retries remain, and marks it failed after the last', async () => {
    const boom = async () => {
      throw new Error('worker died');
    };
    const early = contextWith(boom, 1);
    await expect(measurementOrderPerformer.perform(early.context)).rejects.toThrow('worker died');
    expect(early.failOrder).not.toHaveBeenCalled();
    expect(early.posted).toEqual([]);

    const last = contextWith(boom, measurementOrderPerformer.retryLimit + 1);
    await expect(measurementOrderPerformer.perform(last.context)).rejects.toThrow('worker died');
    expect(last.failOrder).toHaveBeenCalledWith(
      data.orderId,
      'The measurements could not be taken. Please order them again or contact support.',
    );
    expect(last.posted).toEqual([]);
  });
});
