import type { Job } from '@insilico/contracts';
import { selfCheckJob, type SelfCheckData } from '../jobs/self-check.job';
import { mailDeliveryJob } from '../jobs/mail-delivery.job';
import { sessionPurgeJob } from '../jobs/session-purge.job';
import { uploadExpiryJob } from '../jobs/upload-expiry.job';
import { designHistoryExportExpiryJob } from '../jobs/design-history-export.job';
import { designHistoryIncomingSweepJob } from '../jobs/design-history-incoming.job';
import { imagingModelsSweepJob } from '../jobs/imaging-models.job';
import { resultBackfillJob, type ResultBackfillData } from '../jobs/result-backfill.job';
import type { JobRepository, JobRunRow } from '../repositories/job.repository';
import { ServiceError } from './errors';

/** Starting durable jobs and reading their state for the API. */
export class JobService {
  constructor(private readonly repository: JobRepository) {}

  async startSelfCheck(userId: string, seconds: number): Promise<Job> {
    const data: SelfCheckData = { userId, seconds };
    const run = await this.repository.enqueue(selfCheckJob.kind, data, {
      userId,
      retryLimit: selfCheckJob.retryLimit,
      expireInSeconds: selfCheckJob.expireInSeconds,
    });
    return toJob(run);
  }

  /** A job of this user; someone else's answers 404 as if it did not exist. */
  async findForUser(userId: string, id: string): Promise<Job> {
    const run = await this.repository.findById(id);
    if (!run || run.userId !== userId) throw new ServiceError(404, 'not_found', 'No such job.');
    return toJob(run);
  }

  /** With SMTP the outbox is swept every minute (retries with back-off); without, the sweep is removed. */
  async scheduleRecurring(options: { mailDelivery: boolean }): Promise<void> {
    await this.repository.schedule(sessionPurgeJob.kind, '*/15 * * * *');
    await this.repository.schedule(uploadExpiryJob.kind, '7,22,37,52 * * * *');
    await this.repository.schedule(designHistoryExportExpiryJob.kind, '41 * * * *');
    await this.repository.schedule(imagingModelsSweepJob.kind, '29 * * * *');
    await this.repository.schedule(designHistoryIncomingSweepJob.kind, '17 * * * *');
    if (options.mailDelivery) await this.repository.schedule(mailDeliveryJob.kind, '* * * * *');
    else await this.repository.unschedule(mailDeliveryJob.kind);
  }

  /**
   * Asks for the results snapshots of work finished before migration 0027 (at each start: a run that finds nothing
   * to do costs a few queries). `before` is this start: work created since keeps its snapshot at its finish.
   */
  async requestResultBackfill(before: Date): Promise<void> {
    const data: ResultBackfillData = { before: before.toISOString() };
    await this.repository.enqueue(resultBackfillJob.kind, data, {
      userId: null,
      retryLimit: resultBackfillJob.retryLimit,
      expireInSeconds: resultBackfillJob.expireInSeconds,
    });
  }

  /** Starts a mail-delivery run within a second (one run however many mails were queued meanwhile). */
  async requestMailDelivery(): Promise<void> {
    await this.repository.nudge(mailDeliveryJob.kind, 1, mailDeliveryJob.retryLimit);
  }
}

function toJob(run: JobRunRow): Job {
  return {
    id: run.id,
    kind: run.kind,
    status: run.status,
    progress: run.progress,
    progressMessage: run.progressMessage,
    attempts: run.attempts,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}
