import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { PostNotification } from '../services/notification.service';
import type { CohortOrderData } from './cohort-order.job';
import { cohortOrderPerformer } from './cohort-order.performer';
import type { JobContext, JobServices } from './job-definition';

const data: CohortOrderData = {
  cohortId: '7d8f4a34-3c1e-4b8e-9a51-0c4f1f7b2a10',
  userId: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
};
const cohortRow = { id: data.cohortId, deviceId: '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11', name: 'Tall women', size: 20 };

function contextWith(
  prepareOrder: () => Promise<unknown>,
  attempt: number,
): { context: JobContext<CohortOrderData>; posted: PostNotification[]; failOrder: ReturnType<typeof vi.fn> } {
  const posted: PostNotification[] = [];
  const failOrder = vi.fn(async () => ({ ...cohortRow, status: 'failed' }));
  const services = {
    notifications: { post: async (input: PostNotification) => void posted.push(input) },
    cohorts: { prepareOrder, failOrder },
  } as unknown as JobServices;
  return {
    context: {
      jobId: 'job-1',
      data,
      attempt,
      signal: new AbortController().signal,
      progress: async () => undefined,
      services,
      log: pino({ level: 'silent' }),
    },
    posted,
    failOrder,
  };
}

describe('cohort order job', () => {
  it('answers the outcome and posts nothing itself (the orderer hears of it from the cohort.prepared event)', async () => {
    const { context, posted } = contextWith(async () => ({ ...cohortRow, status: 'ready' }), 1);
    expect(await cohortOrderPerformer.perform(context)).toEqual({
      cohortId: data.cohortId,
      outcome: 'ready',
      patients: 20,
    });
    expect(posted).toEqual([]);
  });

  it('ends quietly when the cohort was deleted meanwhile', async () => {
    const { context, posted } = contextWith(async () => null, 1);
    expect(await cohortOrderPerformer.perform(context)).toEqual({ cohortId: data.cohortId, outcome: 'deleted' });
    expect(posted).toEqual([]);
  });

  it('leaves the cohort in progress while retries remain, and marks it failed after the last attempt', async () => {
    const boom = async () => {
      throw new Error('disk full');
    };
    const early = contextWith(boom, 1);
    await expect(cohortOrderPerformer.perform(early.context)).rejects.toThrow('disk full');
    expect(early.failOrder).not.toHaveBeenCalled();
    expect(early.posted).toEqual([]);

    const last = contextWith(boom, cohortOrderPerformer.retryLimit + 1);
    await expect(cohortOrderPerformer.perform(last.context)).rejects.toThrow('disk full');
    expect(last.failOrder).toHaveBeenCalledOnce();
    expect(last.posted).toEqual([]);
  });
});
