import type { Orm } from '../db/client';
import type { CommittedEvent, DomainEvent, TransactionEvents } from '../events/domain-event';
import { DomainEventRepository } from '../events/domain-event.repository';
import { forgetCallerMembership } from '../events/request-context';
import type { JobDescriptor } from '../jobs/job-descriptor';
import { AuthAttemptRepository } from './auth-attempt.repository';
import { CohortRepository } from './cohort.repository';
import { DeviceVersionRepository } from './device-version.repository';
import { DeviceRepository } from './device.repository';
import { ImagingRepository } from './imaging.repository';
import { InvitationRepository } from './invitation.repository';
import type { JobRepository, JobRunRow } from './job.repository';
import { MailRepository } from './mail.repository';
import { MeasurementRepository } from './measurement.repository';
import { PictureRepository } from './picture.repository';
import { ProjectRepository } from './project.repository';
import { QuestionRepository } from './question.repository';
import { CommentRepository } from './comment.repository';
import { AnalysisRepository } from './analysis.repository';
import { OnboardingRepository } from './onboarding.repository';
import { ProjectCreationRepository } from './project-creation.repository';
import { RoomRepository } from './room.repository';
import { SimulationRepository } from './simulation.repository';
import { SsmRepository } from './ssm.repository';
import { SubscriptionRepository } from './subscription.repository';
import { SupportRepository } from './support.repository';
import { TrialRepository } from './trial.repository';
import { DesignHistoryRepository } from './design-history.repository';
import { ResultSnapshotRepository } from './result-snapshot.repository';

/** The jobs a unit of work enqueues: the `job_runs` row and pg-boss's job are written on its connection. */
export interface TransactionJobs {
  /** Nothing is queued unless the transaction commits; a worker never sees a job whose rows rolled back. */
  enqueue<Data extends object>(job: JobDescriptor<Data>, data: Data, userId: string | null): Promise<JobRunRow>;
}

/** The repositories that change together, all on one connection (the transaction's inside `run`). */
export interface Repositories {
  devices: DeviceRepository;
  invitations: InvitationRepository;
  onboarding: OnboardingRepository;
  mail: MailRepository;
  subscriptions: SubscriptionRepository;
  /** The sign-in throttle's counts (invitation links that are not valid). */
  authAttempts: AuthAttemptRepository;
  support: SupportRepository;
  projectCreation: ProjectCreationRepository;
  rooms: RoomRepository;
  cohorts: CohortRepository;
  deviceVersions: DeviceVersionRepository;
  simulations: SimulationRepository;
  /** Measurement definitions, orders and results (issue 23). */
  measurements: MeasurementRepository;
  /** Statistical shape models (issue 18). */
  ssms: SsmRepository;
  /** Imaging datasets (issue 19). */
  imaging: ImagingRepository;
  /** In-silico trials (issue 17). */
  trials: TrialRepository;
  /** Projects, their comments and analyses (issue 20: their changes are recorded in the same transaction). */
  projects: ProjectRepository;
  comments: CommentRepository;
  analyses: AnalysisRepository;
  /** Questions of interest (issue 20: their creation is recorded in the same transaction). */
  questions: QuestionRepository;
  /** Pictures (issue 20: a workspace's device picture changes with its event). */
  pictures: PictureRepository;
  /** The design history file's entries and electronic signatures (issue 20). */
  designHistory: DesignHistoryRepository;
  /** Results snapshots of evidence (issue 20 item 7): kept in the transaction of the event that names them. */
  resultSnapshots: ResultSnapshotRepository;
}

export interface Transaction extends Repositories {
  jobs: TransactionJobs;
  /** Domain events of the change (issue 20): appended to the audit trail in this transaction, just before it commits. */
  events: TransactionEvents;
}

function repositoriesOn(orm: Orm): Repositories {
  return {
    devices: new DeviceRepository(orm),
    invitations: new InvitationRepository(orm),
    onboarding: new OnboardingRepository(orm),
    mail: new MailRepository(orm),
    subscriptions: new SubscriptionRepository(orm),
    authAttempts: new AuthAttemptRepository(orm),
    support: new SupportRepository(orm),
    projectCreation: new ProjectCreationRepository(orm),
    rooms: new RoomRepository(orm),
    cohorts: new CohortRepository(orm),
    deviceVersions: new DeviceVersionRepository(orm),
    simulations: new SimulationRepository(orm),
    ssms: new SsmRepository(orm),
    measurements: new MeasurementRepository(orm),
    imaging: new ImagingRepository(orm),
    trials: new TrialRepository(orm),
    projects: new ProjectRepository(orm),
    comments: new CommentRepository(orm),
    analyses: new AnalysisRepository(orm),
    questions: new QuestionRepository(orm),
    pictures: new PictureRepository(orm),
    designHistory: new DesignHistoryRepository(orm),
    resultSnapshots: new ResultSnapshotRepository(orm),
  };
}

/**
 * The one way to run a transaction (docs/decisions/one-transaction-idiom.md): `run(async (tx) => …)` hands
 * the work repositories bound to the transaction's connection and a job queue on that same connection, so
 * rows and the jobs that process them commit or roll back together. Everything inside `work` must use `tx`,
 * never an outer repository (on PGlite, one connection, an outer query would wait for the transaction).
 */
export class UnitOfWork {
  /** The same repositories outside any transaction (reads, and single-statement writes). */
  readonly repositories: Repositories;
  private queuesReady: Promise<void> | null = null;
  /**
   * Called with the committed events after the commit, never inside it (issue 20): the audit chainer, and the event
   * relay, which delivers them to the notifications from the outbox the transaction wrote (events/event-relay.ts).
   */
  private readonly eventSubscribers: ((events: readonly CommittedEvent[]) => void | Promise<void>)[] = [];

  /**
   * `jobs.queues`: every job kind a unit of work may enqueue (created before the first transaction, see `run`);
   * without `jobs` (the operator CLI) nothing may be enqueued.
   */
  constructor(
    private readonly orm: Orm,
    private readonly jobs: { repository: JobRepository; queues: readonly string[] } | null = null,
  ) {
    this.repositories = repositoriesOn(orm);
  }

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // pg-boss creates a queue on its own connection; on PGlite that would wait for an open transaction
    // for ever, so the queues exist before any transaction starts.
    // Memberships may change here: the one noted with the session no longer answers for the rest of the request.
    forgetCallerMembership();
    this.queuesReady ??= this.prepareQueues();
    await this.queuesReady;
    let committed: CommittedEvent[] = [];
    const queuedKinds = new Set<string>();
    const result = await this.orm.transaction(async (orm) => {
      const jobs: TransactionJobs = {
        enqueue: (job, data, userId) => {
          if (!this.jobs?.queues.includes(job.kind))
            throw new Error(`Job kind ${job.kind} is not among the unit of work's queues.`);
          queuedKinds.add(job.kind);
          return this.jobs.repository.enqueueOn(orm, job.kind, data, {
            userId,
            retryLimit: job.retryLimit,
            expireInSeconds: job.expireInSeconds,
          });
        },
      };
      const recorded: DomainEvent[] = [];
      const events: TransactionEvents = { record: (event) => void recorded.push(event) };
      const outcome = await work({ ...repositoriesOn(orm), jobs, events });
      const ids = await new DomainEventRepository(orm).append(recorded);
      committed = recorded.map((event, index) => ({ ...event, id: ids[index]! }));
      return outcome;
    });
    for (const kind of queuedKinds) this.jobs?.repository.wake(kind);
    // Awaited, so that what follows from a change (a notification) is there when the caller answers.
    if (committed.length > 0) for (const subscriber of this.eventSubscribers) await subscriber(committed);
    return result;
  }

  /**
   * Calls `subscriber` with the events of each committed unit of work, after the commit; `run` waits for it. It must
   * not throw (the change has been made): it reports its own failures.
   */
  subscribe(subscriber: (events: readonly CommittedEvent[]) => void | Promise<void>): void {
    this.eventSubscribers.push(subscriber);
  }

  private async prepareQueues(): Promise<void> {
    try {
      for (const kind of this.jobs?.queues ?? []) await this.jobs!.repository.ensureQueue(kind);
    } catch (error) {
      this.queuesReady = null; // the next unit of work tries again
      throw error;
    }
  }
}
