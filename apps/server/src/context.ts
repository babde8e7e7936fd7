import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config';
import { CpuPool } from './cpu/pool';
import type { Database, Orm } from './db/client';
import { injectFetch } from './http/inject-fetch';
import { isSameOriginRequest } from './http/origin';
import { createEmbeddedIssuer, embeddedClientId } from './issuer/embedded-issuer';
import { loadIssuerSecrets } from './issuer/issuer-keys';
import { jobDefinitions } from './jobs/registry';
import { JobRunner } from './jobs/job-runner';
import { AnalysisRepository } from './repositories/analysis.repository';
import { AnalyticsForwardRepository } from './repositories/analytics-forward.repository';
import { AnalyticsRepository } from './repositories/analytics.repository';
import { type BlobStore, FilesystemBlobStore } from './repositories/blob.repository';
import { S3BlobStore } from './repositories/s3-blob.repository';
import { CommentRepository } from './repositories/comment.repository';
import { IdentityRepository } from './repositories/identity.repository';
import { JobRepository } from './repositories/job.repository';
import { MailDeliveryRepository } from './repositories/mail-delivery.repository';
import { NotificationRepository } from './repositories/notification.repository';
import { PictureRepository } from './repositories/picture.repository';
import { ProjectRepository } from './repositories/project.repository';
import { ProjectAccessRepository } from './repositories/project-access.repository';
import { ProjectDraftRepository } from './repositories/project-draft.repository';
import { QuestionRepository } from './repositories/question.repository';
import { SessionRepository } from './repositories/session.repository';
import { SettingsRepository } from './repositories/settings.repository';
import { UploadRepository } from './repositories/upload.repository';
import { SmtpRepository } from './repositories/smtp.repository';
import { UserRepository } from './repositories/user.repository';
import { type Repositories, UnitOfWork } from './repositories/unit-of-work';
import { AnalysisService } from './services/analysis.service';
import { SsmService } from './services/ssm.service';
import { ImagingService } from './services/imaging.service';
import { ImagingQueueService } from './services/imaging-queue.service';
import { ImagingPatientService } from './services/imaging-patient.service';
import { AnalyticsService } from './services/analytics.service';
import { AuthService } from './services/auth.service';
import { SigningReauthenticationService, type SigningIssuer } from './services/signing-reauthentication.service';
import { SigningReauthenticationRepository } from './repositories/signing-reauthentication.repository';
import { PatientMeshCache } from './services/cohort-mesh.service';
import { VirtualPatientDatabase } from './services/cohort-population';
import { storeMissingRecords } from './services/cohort-records';
import { CohortService } from './services/cohort.service';
import { MeasurementService } from './services/measurement.service';
import { CommentService } from './services/comment.service';
import { DeviceService } from './services/device.service';
import { HealthService } from './services/health.service';
import { DeviceVersionService } from './services/device-version.service';
import { JobService } from './services/job.service';
import { MailDeliveryService } from './services/mail-delivery.service';
import { MailService } from './services/mail.service';
import { MaintenanceService } from './services/maintenance.service';
import { NotificationService } from './services/notification.service';
import { OnboardingService } from './services/onboarding.service';
import { PictureService } from './services/picture.service';
import { ProfileService } from './services/profile.service';
import { ProjectAccessService } from './services/project-access.service';
import { ProjectCreationService } from './services/project-creation.service';
import { ProjectDraftService } from './services/project-draft.service';
import { QuestionService } from './services/question.service';
import { ProjectService } from './services/project.service';
import { JobNotifications } from './services/job-notifications';
import { TeamNotifications } from './services/team-notifications';
import { ProjectNotifications } from './services/project-notifications';
import { AuditService } from './services/audit.service';
import { ActivityService } from './services/activity.service';
import { DomainEventRepository } from './events/domain-event.repository';
import { AuditChainer } from './events/audit-chainer';
import { EventOutboxRepository } from './events/event-outbox.repository';
import { EventRelay } from './events/event-relay';
import { DesignHistoryService } from './services/design-history.service';
import { AuthThrottle } from './services/auth-throttle.service';
import { DesignHistoryExportService } from './services/design-history-exports';
import { DesignHistoryAttachmentService } from './services/design-history-attachments';
import { AccountService } from './issuer/account.service';
import { AccountRepository } from './issuer/account.repository';
import { grantOf } from './policies/workspace.policy';
import { RoomScreenshotService } from './services/room-screenshot.service';
import { RoomService } from './services/room.service';
import { SessionService } from './services/session.service';
import { SimulationService } from './services/simulation.service';
import { SubscriptionService } from './services/subscription.service';
import { SupportStaffService } from './services/support-staff.service';
import { SupportService } from './services/support.service';
import { TrialService } from './services/trial.service';
import { RepresentativenessService } from './services/representativeness.service';
import { AnalysisReportService } from './services/analysis-report.service';
import { AnalysisSnapshotService } from './services/analysis-snapshot.service';
import { ResultKeeper } from './services/result-snapshots';
import { ResultSnapshotService } from './services/result-snapshot.service';
import { ResultBackfillService } from './services/result-backfill';
import { defaultInvitationTtlMs, TeamService } from './services/team.service';
import { UploadService } from './services/upload.service';

/** The parts the operator commands use: the CLIs build only these (`createOperatorContext`), the server the same. */
export interface OperatorContext {
  settings: SettingsRepository;
  maintenance: MaintenanceService;
  mail: MailService;
  /** Plans and seats of workspaces. */
  subscriptions: SubscriptionService;
  supportStaff: SupportStaffService;
  /** Product analytics: our ingestion and the operator's report (issue 21). */
  analytics: AnalyticsService;
}

/** Sign-in through the embedded issuer or an external one (issue 2). */
export interface SignIn {
  auth: AuthService;
  /** Mounts the embedded issuer's pages and endpoints on the HTTP server (nothing with an external issuer). */
  mountIssuer(app: FastifyInstance): Promise<void>;
  /** The external issuer, asked for a fresh sign-in at each electronic signature; null with the embedded one. */
  signingIssuer: SigningIssuer | null;
}

/** The composition root shared by the HTTP server and the standalone worker: one of each part. */
export interface AppContext extends OperatorContext {
  config: AppConfig;
  db: Database;
  users: UserRepository;
  sessions: SessionService;
  /** Null in `npm run worker`, which serves no requests. */
  signIn: SignIn | null;
  /** Electronic signatures confirmed by a fresh sign-in at an external identity provider. */
  signingReauthentication: SigningReauthenticationService;
  /** `GET /api/health`: the database answers, maintenance state, version. */
  health: HealthService;
  notifications: NotificationService;
  jobs: JobService;
  jobRepository: JobRepository;
  /** Present when this process works jobs. */
  jobRunner: JobRunner | null;
  /** Device workspaces (issue 3). */
  devices: DeviceService;
  team: TeamService;
  /** Projects: overview, one project, status, team, stats (issue 5). */
  projects: ProjectService;
  onboarding: OnboardingService;
  /** Profile and device pictures (issue 3). */
  pictures: PictureService;
  profiles: ProfileService;
  /** SMTP delivery of the outbox; null without SMTP_URL (the outbox is then the operators' inbox). */
  mailDelivery: MailDeliveryService | null;
  /** Ask support and the support inbox. */
  support: SupportService;
  /** Files (pictures, meshes, results), one area per data region. */
  blobs: BlobStore;
  /** Worker threads for CPU-heavy work (STL checks, meshes); closed after the job runner stops. */
  cpu: CpuPool;
  /** Patient cohorts (issue 4). */
  cohorts: CohortService;
  /** Loads a project with the caller's standing and applies the project policy (issue 5). */
  projectAccess: ProjectAccessService;
  /** Resumable uploads (tus) and device versions with their processing (issue 5 item 6). */
  uploads: UploadService;
  deviceVersions: DeviceVersionService;
  /** The project creation wizard: creating a project, its draft, questions of interest (issue 5 items 1–2). */
  projectCreation: ProjectCreationService;
  projectDrafts: ProjectDraftService;
  questions: QuestionService;
  /** Population analyses of projects (issue 6). */
  analyses: AnalysisService;
  /** The Comments tab of projects, with mentions (issue 5 item 4). */
  comments: CommentService;
  /** Rooms of projects: the Rooms tab, the scene with placed devices, screenshots (issue 5 items 7–8). */
  rooms: RoomService;
  roomScreenshots: RoomScreenshotService;
  /** Simulations of rooms: set-up, runs on the CPU pool, the simulation list, results (issue 16). */
  simulations: SimulationService;
  /** Anatomical measurements: definitions, orders on cohorts (CPU pool), results, corrections (issue 23). */
  measurements: MeasurementService;
  representativeness: RepresentativenessService;
  /** The population analysis report as PDF (issue 23). */
  analysisReports: AnalysisReportService;
  /** Statistical shape models of projects (issue 18). */
  ssms: SsmService;
  /** Imaging datasets (issue 19). */
  imaging: ImagingService;
  /** The support staff's modelling queue of imaging datasets (issue 19). */
  imagingQueue: ImagingQueueService;
  /** The patients of projects' imaging cohorts (issue 19 item 7). */
  imagingPatients: ImagingPatientService;
  /** In-silico trials: one set-up over a cohort, a run per patient, outcomes (issue 17). */
  trials: TrialService;
  /** The audit trail's verifier and export, and the activity feed (issue 20). */
  audit: AuditService;
  activity: ActivityService;
  /** Links committed events into the hash chain; the server waits for it when closing. */
  auditChainer: AuditChainer;
  /** Delivers the domain events to the notifications (the outbox's relay, issue 20). */
  eventRelay: EventRelay;
  /** Kept results of evidence, read with their object's permission (issue 20 item 7). */
  resultSnapshots: ResultSnapshotService;
  /** Results snapshots for work finished before migration 0027, a job enqueued at each start (issue 20 item 7). */
  resultBackfill: ResultBackfillService;
  /** The design history file and electronic signatures (issue 20 items 4–5). */
  designHistory: DesignHistoryService;
  /** Design history files of large histories, made by a job (issue 20 item 6). */
  designHistoryExports: DesignHistoryExportService;
  /** Files attached to design history entries (issue 20 item 4). */
  designHistoryAttachments: DesignHistoryAttachmentService;
}

/**
 * The operator's parts on a unit of work: the server passes its own, a CLI one without a job queue (it enqueues
 * nothing). `maintenanceCacheMs`: 0 in a CLI, which must see the switch it just made.
 */
export function createOperatorContext(
  orm: Orm,
  options: {
    unitOfWork?: UnitOfWork;
    maintenanceCacheMs?: number;
    analytics?: Pick<AppConfig['analytics'], 'key' | 'retentionDays' | 'forwardUrl'>;
  } = {},
): OperatorContext {
  const unitOfWork = options.unitOfWork ?? new UnitOfWork(orm);
  const settings = new SettingsRepository(orm);
  return {
    settings,
    maintenance: new MaintenanceService(settings, options.maintenanceCacheMs ?? 0),
    mail: new MailService(unitOfWork.repositories.mail),
    subscriptions: new SubscriptionService(unitOfWork),
    supportStaff: new SupportStaffService(unitOfWork.repositories.support),
    analytics: new AnalyticsService(
      new AnalyticsRepository(orm),
      // Without settings (a CLI that only reads the report) the ingestion is off.
      {
        key: options.analytics?.key ?? null,
        retentionDays: options.analytics?.retentionDays ?? 400,
        forward: options.analytics?.forwardUrl ? new AnalyticsForwardRepository(options.analytics.forwardUrl) : null,
      },
    ),
  };
}

/**
 * Sign-in: the embedded issuer unless an external one is configured. The embedded issuer is reached in-process
 * (Fastify's inject) once mounted, whatever PUBLIC_URL resolves to from inside the host.
 */
async function createSignIn(
  config: AppConfig,
  db: Database,
  repositories: Repositories,
  settings: SettingsRepository,
  users: UserRepository,
  sessions: SessionService,
): Promise<SignIn> {
  const redirects = {
    redirectUri: `${config.publicUrl}/api/auth/callback`,
    postLogoutRedirectUri: `${config.publicUrl}/`,
  };
  if (config.externalIssuer) {
    const identity = new IdentityRepository({
      issuerUrl: config.externalIssuer.url,
      clientId: config.externalIssuer.clientId,
      clientSecret: config.externalIssuer.clientSecret,
      ...redirects,
      scopes: config.oidcScopes,
      allowInsecureRequests: config.externalIssuer.url.startsWith('http://'),
    });
    return {
      auth: new AuthService(sessions, identity, users, { identityProvider: 'external', passwordChangeUrl: null }),
      mountIssuer: async () => {},
      signingIssuer: identity,
    };
  }
  const publicOrigin = new URL(config.publicUrl).origin;
  const issuer = createEmbeddedIssuer({
    publicUrl: config.publicUrl,
    orm: db.orm,
    repositories,
    secrets: await loadIssuerSecrets(settings),
    secureCookies: config.secureCookies,
    trustProxy: config.trustProxy,
    isSameOrigin: (request) => isSameOriginRequest(request, publicOrigin),
  });
  let served: typeof fetch | null = null;
  const identity = new IdentityRepository({
    issuerUrl: issuer.issuerUrl,
    clientId: embeddedClientId,
    clientSecret: issuer.clientSecret,
    ...redirects,
    scopes: 'openid email profile',
    allowInsecureRequests: true,
    fetch: (input, init) => {
      if (!served) throw new Error('The embedded issuer is not mounted on an HTTP server.');
      return served(input, init);
    },
  });
  return {
    auth: new AuthService(sessions, identity, users, {
      identityProvider: 'embedded',
      passwordChangeUrl: issuer.passwordChangeUrl,
    }),
    mountIssuer: async (app) => {
      await issuer.register(app);
      served = injectFetch(app);
    },
    signingIssuer: null,
  };
}

export async function createContext(
  config: AppConfig,
  db: Database,
  log: Logger,
  /** `servesRequests`: an HTTP server (its CPU threads yield to its event loop), not `npm run worker`. */
  options: { workJobs: boolean; servesRequests: boolean },
): Promise<AppContext> {
  // Work created before this start without a results snapshot is older than migration 0027 (result-backfill.ts).
  const startedAt = new Date();
  const users = new UserRepository(db.orm);
  const sessions = new SessionService(new SessionRepository(db.orm), {
    idleMs: config.sessionIdleMs,
    absoluteMs: config.sessionAbsoluteMs,
  });
  const notifications = new NotificationService(
    new NotificationRepository(db),
    log.child({ component: 'notifications' }),
  );
  const jobRepository = new JobRepository(db);
  await jobRepository.start((error) => log.error({ err: error }, 'job queue error'));
  const jobs = new JobService(jobRepository);
  // The one way to run a transaction; any registered job may be enqueued inside one.
  const unitOfWork = new UnitOfWork(db.orm, {
    repository: jobRepository,
    queues: jobDefinitions.map((job) => job.kind),
  });
  // Each repository once: the unit of work's own, outside any transaction.
  const repositories = unitOfWork.repositories;
  const operator = createOperatorContext(db.orm, {
    unitOfWork,
    maintenanceCacheMs: config.maintenanceCacheMs,
    analytics: config.analytics,
  });
  const signIn = options.servesRequests
    ? await createSignIn(config, db, repositories, operator.settings, users, sessions)
    : null;
  await jobs.scheduleRecurring({ mailDelivery: config.smtpUrl !== null });
  const mailDelivery = config.smtpUrl
    ? new MailDeliveryService(new MailDeliveryRepository(db), new SmtpRepository(config.smtpUrl), {
        from: config.mailFrom,
        messageIdDomain: new URL(config.publicUrl).hostname,
      })
    : null;
  // A queued mail starts a delivery run at once; the minute sweep only carries the retries.
  await mailDelivery?.onQueued(() => {
    jobs.requestMailDelivery().catch((error: unknown) => log.error({ err: error }, 'mail delivery request failed'));
  });
  const blobs: BlobStore =
    config.storage.driver === 's3'
      ? new S3BlobStore({ ...config.storage, cacheDir: join(config.dataDir, 'cache', 'blobs') })
      : new FilesystemBlobStore(join(config.dataDir, 'blobs'));
  // Jobs' CPU-heavy pure work runs here, so requests stay fast while a job computes (threads start on demand).
  const cpu = new CpuPool({
    ...(config.cpuThreads ? { threads: config.cpuThreads } : {}),
    nice: config.cpuThreadsNice ?? (options.servesRequests ? 10 : 0),
  });
  const support = new SupportService({
    unitOfWork,
    notifications,
    blobs,
    publicUrl: config.publicUrl,
    supportEmail: config.supportEmail,
    log: log.child({ component: 'support' }),
  });
  const cohortRepository = repositories.cohorts;
  const deviceRepository = repositories.devices;
  const uploadRepository = new UploadRepository(db.orm);
  const projectAccess = new ProjectAccessService(new ProjectAccessRepository(db.orm));
  const patientDatabase = new VirtualPatientDatabase();
  // Data step of migration 0007: cohorts ordered before patient records were stored get them, once.
  const recordFill = await storeMissingRecords(cohortRepository, patientDatabase);
  if (recordFill.filled > 0 || recordFill.unreadable.length > 0)
    log.info({ ...recordFill }, 'stored the patient records of cohorts ordered before they were stored');
  const cohorts = new CohortService(
    cohortRepository,
    deviceRepository,
    patientDatabase,
    new PatientMeshCache(blobs, cpu),
    unitOfWork,
    // A pathology the criteria do not offer yet reaches support as a request in the inbox.
    async ({ deviceId, userId, name }) => {
      await support.create(
        userId,
        {
          subject: `New pathology requested: ${name}`,
          message: `Please add the pathology "${name}" to the virtual patient database. It was asked for in the cohort criteria.`,
        },
        { deviceId },
      );
    },
    // SSMs chained onto a cohort being ordered (issue 18) move on in the transaction that ends the order.
    (tx, cohort, status) => ssms.cohortSettled(tx, cohort, status),
  );
  const uploads = new UploadService(uploadRepository, deviceRepository, blobs);
  const deviceVersions = new DeviceVersionService({
    repository: repositories.deviceVersions,
    devices: deviceRepository,
    uploads: uploadRepository,
    blobs,
    unitOfWork,
    projectAccess,
    cpu,
    joinedProject: (projectId, versionId) => trials.versionReady(projectId, versionId),
  });
  const team = new TeamService(unitOfWork, {
    publicUrl: config.publicUrl,
    invitationTtlMs: defaultInvitationTtlMs,
  });
  // The device picture follows a change of the data region (pictures is built next: it asks devices for grants).
  const devices: DeviceService = new DeviceService(unitOfWork, team, (deviceId): Promise<void> =>
    pictures.moveDevicePictureToRegion(deviceId),
  );
  const pictures = new PictureService({
    files: new PictureRepository(db.orm),
    blobs,
    grant: (userId, deviceId) => devices.grant(userId, deviceId),
    log: log.child({ component: 'pictures' }),
    unitOfWork,
  });
  const onboarding = new OnboardingService(unitOfWork, devices, pictures);
  const roomRepository = repositories.rooms;
  const projects = new ProjectService(new ProjectRepository(db.orm), projectAccess, unitOfWork);
  // The audit chain links each unit of work's events after its commit; notifications follow the events (issue 20).
  const chainer = new AuditChainer(db.orm, log.child({ component: 'audit' }));
  const audit = new AuditService(
    new DomainEventRepository(db.orm),
    async (userId, deviceId) => grantOf(await deviceRepository.findMembership(deviceId, userId)),
    chainer,
  );
  unitOfWork.subscribe(() => chainer.schedule());
  // Notifications follow the events through the outbox (issue 20): durable, at least once, idempotent.
  const eventRelay = new EventRelay(
    new EventOutboxRepository(db.orm),
    [
      new ProjectNotifications(repositories.projects, notifications),
      new TeamNotifications(repositories, notifications),
      new JobNotifications(notifications, (projectId) => repositories.deviceVersions.teamOf(projectId)),
    ],
    log.child({ component: 'notifications' }),
  );
  unitOfWork.subscribe((events) => eventRelay.deliver(events.map((event) => event.id)));
  const roomLog = log.child({ component: 'rooms' });
  // Results that stay (issue 20 item 7): each kind of evidence keeps its results with the event that names them.
  const resultKeeper = new ResultKeeper(config.version);
  const ssms = new SsmService(
    repositories.ssms,
    cohortRepository,
    deviceRepository,
    projectAccess,
    blobs,
    cpu,
    unitOfWork,
    resultKeeper,
    repositories.imaging,
  );
  const imagingPatients = new ImagingPatientService({
    repository: repositories.imaging,
    projects: projectAccess,
    blobs,
    cpu,
  });
  const rooms = new RoomService(
    roomRepository,
    projectAccess,
    cohorts,
    blobs,
    roomLog,
    unitOfWork,
    ssms,
    imagingPatients,
  );
  const simulations = new SimulationService({
    repository: repositories.simulations,
    rooms,
    projects: projectAccess,
    blobs,
    unitOfWork,
    settings: operator.settings,
    cpu,
    workDir: join(config.dataDir, 'simulations'),
    concurrencyPerWorkspace: config.simulationsPerWorkspace,
    quietRun: async (simulationId) => (await repositories.trials.patientOfSimulation(simulationId)) !== null,
    imagingPatients,
    ssms,
    log: log.child({ component: 'simulations' }),
    results: resultKeeper,
  });
  const trials = new TrialService({
    repository: repositories.trials,
    simulationRepository: repositories.simulations,
    simulations,
    rooms,
    projects: projectAccess,
    blobs,
    unitOfWork,
    cpu,
    notifications,
    codeVersion: config.version,
    results: resultKeeper,
    ssms,
    imagingPatients,
  });
  const measurements = new MeasurementService(
    repositories.measurements,
    cohortRepository,
    deviceRepository,
    unitOfWork,
    cpu,
    resultKeeper,
    ssms,
  );
  const imaging = new ImagingService({
    repository: repositories.imaging,
    uploads: uploadRepository,
    devices: deviceRepository,
    projectAccess,
    unitOfWork,
    blobs,
    cpu,
  });
  const imagingQueue = new ImagingQueueService({
    repository: repositories.imaging,
    support: unitOfWork.repositories.support,
    blobs,
    cpu,
    unitOfWork,
  });
  const designHistoryAttachments = new DesignHistoryAttachmentService({
    unitOfWork,
    repository: repositories.designHistory,
    devices: deviceRepository,
    projectAccess,
    blobs,
    uploads: uploadRepository,
  });
  const designHistory = new DesignHistoryService({
    unitOfWork,
    repository: repositories.designHistory,
    attachmentFiles: designHistoryAttachments,
    resultSnapshots: (ids) => repositories.resultSnapshots.byIds(ids),
    measurementSnapshots: (userId, deviceId, projectIds) =>
      resultSnapshots.measurementsFor(userId, deviceId, projectIds),
    devices: deviceRepository,
    projectAccess,
    audit,
    cpu,
    throttle: new AuthThrottle(repositories.authAttempts),
    // Signing re-enters the embedded issuer's password; an external issuer's accounts are not ours to check.
    accounts: config.externalIssuer
      ? null
      : new AccountService(new AccountRepository(db.orm), async (mail) => void (await repositories.mail.insert(mail))),
  });
  const signingReauthentication = new SigningReauthenticationService({
    issuer: signIn?.signingIssuer ?? null,
    repository: new SigningReauthenticationRepository(db.orm),
    designHistory,
    sessions,
  });
  const designHistoryExports = new DesignHistoryExportService({
    unitOfWork,
    repository: repositories.designHistory,
    designHistory,
    devices: deviceRepository,
    users,
    blobs,
  });
  const resultBackfill = new ResultBackfillService({
    repository: repositories.resultSnapshots,
    unitOfWork,
    keeper: resultKeeper,
    current: {
      simulation: (id) => simulations.currentResults(id),
      trial: (id) => trials.currentResults(id),
      measurement: (id) => measurements.currentResults(id),
      ssm: (id) => ssms.currentResults(id),
    },
  });
  await jobs.requestResultBackfill(startedAt);
  const jobRunner = options.workJobs
    ? new JobRunner(
        jobRepository,
        jobDefinitions,
        {
          notifications,
          sessions,
          mailDelivery,
          cohorts,
          deviceVersions,
          uploads,
          simulations,
          measurements,
          ssms,
          imaging,
          imagingQueue,
          trials,
          analytics: operator.analytics,
          designHistoryExports,
          resultBackfill,
          designHistoryAttachments,
        },
        {
          heartbeatMs: config.jobHeartbeatMs,
          staleAfterMs: config.jobStaleAfterMs,
          pollSeconds: config.jobPollSeconds,
          soleProcess: db.kind === 'pglite',
        },
        log.child({ component: 'jobs' }),
      )
    : null;
  const representativeness = new RepresentativenessService({
    access: projectAccess,
    analyses: new AnalysisRepository(db.orm),
    cohorts: cohortRepository,
    imaging: repositories.imaging,
    cpu,
  });
  const analysisReports = new AnalysisReportService({
    access: projectAccess,
    analyses: new AnalysisRepository(db.orm),
    cohorts: cohortRepository,
    imaging: repositories.imaging,
    cpu,
    representativeness,
    trialColumns: async (userId, deviceId, projectId, cohortId) => {
      const onCohort = (await trials.list(userId, deviceId, projectId)).items.filter((t) => t.cohort?.id === cohortId);
      return Promise.all(onCohort.map((t) => trials.outcomeColumns(userId, deviceId, projectId, t.id)));
    },
    measurementOrders: (userId, deviceId, cohortId) => measurements.readyOrdersFor(userId, deviceId, cohortId),
    userName: async (userId) => (await users.findById(userId))?.fullName ?? null,
    codeVersion: config.version,
  });
  const resultSnapshots = new ResultSnapshotService({
    repository: repositories.resultSnapshots,
    projects: projectAccess,
    measurements,
  });
  const analysisSnapshots = new AnalysisSnapshotService({
    reports: analysisReports,
    cohorts: cohortRepository,
    imaging: repositories.imaging,
    cpu,
    codeVersion: config.version,
  });
  return {
    ...operator,
    config,
    db,
    users,
    sessions,
    signIn,
    signingReauthentication,
    health: new HealthService(async () => void (await db.executeSql('select 1')), operator.maintenance, config.version),
    notifications,
    jobs,
    jobRepository,
    jobRunner,
    devices,
    team,
    onboarding,
    pictures,
    profiles: new ProfileService(users),
    mailDelivery,
    projects,
    support,
    blobs,
    cpu,
    cohorts,
    uploads,
    deviceVersions,
    projectCreation: new ProjectCreationService(unitOfWork, deviceRepository, ssms),
    projectDrafts: new ProjectDraftService(new ProjectDraftRepository(db.orm), deviceRepository, ssms),
    questions: new QuestionService(new QuestionRepository(db.orm), deviceRepository, unitOfWork),
    analyses: new AnalysisService(
      new AnalysisRepository(db.orm),
      projectAccess,
      unitOfWork,
      (projectId, cohortId) => trials.outcomeParameters(projectId, cohortId),
      (deviceId, cohortId) => measurements.analysisParameters(deviceId, cohortId),
      (userId, deviceId, projectId, state) => analysisSnapshots.take(userId, deviceId, projectId, state),
      (datasetId) => imagingPatients.parameterTable(datasetId),
    ),
    projectAccess,
    comments: new CommentService({
      comments: new CommentRepository(db.orm),
      access: projectAccess,
      notifications,
      log: log.child({ component: 'comments' }),
      unitOfWork,
    }),
    rooms,
    roomScreenshots: new RoomScreenshotService({
      rooms,
      repository: roomRepository,
      unitOfWork,
      devices: deviceRepository,
      blobs,
      log: roomLog,
    }),
    simulations,
    measurements,
    representativeness,
    analysisReports,
    ssms,
    imaging,
    imagingPatients,
    imagingQueue,
    trials,
    audit,
    auditChainer: chainer,
    eventRelay,
    resultSnapshots,
    activity: new ActivityService(
      new DomainEventRepository(db.orm, db),
      deviceRepository,
      log.child({ component: 'activity' }),
    ),
    designHistory,
    designHistoryExports,
    designHistoryAttachments,
    resultBackfill,
  };
}
