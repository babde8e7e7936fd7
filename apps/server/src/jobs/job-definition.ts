import type { Logger } from 'pino';
import type { AnalyticsService } from '../services/analytics.service';
import type { MailDeliveryService } from '../services/mail-delivery.service';
import type { CohortService } from '../services/cohort.service';
import type { DesignHistoryAttachmentService } from '../services/design-history-attachments';
import type { DesignHistoryExportService } from '../services/design-history-exports';
import type { DeviceVersionService } from '../services/device-version.service';
import type { ImagingService } from '../services/imaging.service';
import type { ImagingQueueService } from '../services/imaging-queue.service';
import type { MeasurementService } from '../services/measurement.service';
import type { NotificationService } from '../services/notification.service';
import type { ResultBackfillService } from '../services/result-backfill';
import type { SessionService } from '../services/session.service';
import type { SimulationService } from '../services/simulation.service';
import type { SsmService } from '../services/ssm.service';
import type { TrialService } from '../services/trial.service';
import type { UploadService } from '../services/upload.service';
import type { JobDescriptor } from './job-descriptor';

/** What a job's `perform` may use: services, never the HTTP layer. */
export interface JobServices {
  notifications: NotificationService;
  sessions: SessionService;
  /** Null when this process has no SMTP_URL: the outbox then stays the operators' inbox. */
  mailDelivery: MailDeliveryService | null;
  /** Patient cohorts (the order job). */
  cohorts: CohortService;
  /** Device versions (the processing job) and resumable uploads (the expiry sweep). */
  deviceVersions: DeviceVersionService;
  uploads: UploadService;
  /** Simulation runs (issue 16). */
  simulations: SimulationService;
  /** Measurement orders (issue 23). */
  measurements: MeasurementService;
  /** Statistical shape models (issue 18, the build job). */
  ssms: SsmService;
  /** Imaging datasets (issue 19, the re-check job). */
  imaging: ImagingService;
  /** The support staff's deliveries of patient models (issue 19, the check job). */
  imagingQueue: ImagingQueueService;
  /** In-silico trials (issue 17): patients' preparation and outcomes after each run. */
  trials: TrialService;
  /** Product analytics (issue 21): the events the server records itself. */
  analytics: AnalyticsService;
  /** Design history files of large histories (issue 20 item 6), and their removal after the retention. */
  designHistoryExports: DesignHistoryExportService;
  /** Results snapshots for work finished before migration 0027 (issue 20 item 7). */
  resultBackfill: ResultBackfillService;
  /** Attachments of design history entries: the sweep of upload temporaries a crash left. */
  designHistoryAttachments: Pick<DesignHistoryAttachmentService, 'sweepIncoming'>;
}

export interface JobContext<Data> {
  jobId: string;
  data: Data;
  /** 1 on the first attempt, 2 on the first retry … */
  attempt: number;
  /** Aborted when the worker shuts down or the job is taken away; stop soon after. */
  signal: AbortSignal;
  /** Stores progress (a fraction 0..1, optional message); readable through the API. */
  progress(fraction: number, message?: string): Promise<void>;
  services: JobServices;
  log: Logger;
}

/**
 * One kind of durable job as its runner works it: the descriptor (what services enqueue with) and how it is
 * performed. Delivery is at-least-once — a job may run again after a crash — so `perform` must be idempotent: its
 * effects are keyed so that a second run changes nothing.
 */
export interface JobDefinition<Data = unknown> extends JobDescriptor<Data> {
  perform(context: JobContext<Data>): Promise<unknown>;
}

/** A job's performer: its descriptor with the work (`*.performer.ts`, listed in registry.ts). */
export function defineJob<Data>(
  descriptor: JobDescriptor<Data>,
  perform: (context: JobContext<Data>) => Promise<unknown>,
): JobDefinition<Data> {
  return { ...descriptor, perform };
}
