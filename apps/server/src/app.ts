import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { withRequestContext } from './events/request-context';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { registerFonts } from './http/fonts';
import { expandUnionIssues, validationMessage } from './lib/validation-message';
import { maintenancePage } from './http/maintenance-page';
import { isSameOriginRequest, stateChangingMethods } from './http/origin';
import { registerSecurityHeaders } from './http/security-headers';
import { finishReadingBody } from './http/request-body';
import { readSessionToken, type SessionCookieSettings } from './http/session-cookie';
import { addressedWorkspace } from './http/addressed-workspace';
import { requireUser } from './policies/authentication';
import { analysisRoutes } from './routes/analyses/analyses.routes';
import { representativenessRoutes } from './routes/analyses/representativeness.routes';
import { analysisReportRoutes } from './routes/analyses/analysis-report.routes';
import { analyticsOperatorRoutes, analyticsRoutes } from './routes/analytics/analytics.routes';
import { authRoutes } from './routes/auth/auth.routes';
import { cohortRoutes } from './routes/cohorts/cohorts.routes';
import { commentRoutes } from './routes/comments/comments.routes';
import { deviceVersionRoutes } from './routes/device-versions/device-versions.routes';
import { deviceRoutes } from './routes/devices/devices.routes';
import { healthRoutes } from './routes/health/health.routes';
import { jobRoutes } from './routes/jobs/jobs.routes';
import { notificationRoutes } from './routes/notifications/notifications.routes';
import { auditRoutes } from './routes/audit/audit.routes';
import { designHistoryRoutes } from './routes/design-history/design-history.routes';
import { designHistoryAttachmentRoutes } from './routes/design-history/design-history-attachments.routes';
import { auditOperatorRoutes } from './routes/operator/audit-operator.routes';
import { onboardingRoutes } from './routes/onboarding/onboarding.routes';
import { pictureRoutes } from './routes/pictures/pictures.routes';
import { profileRoutes } from './routes/profile/profile.routes';
import { projectCreationRoutes } from './routes/project-creation/project-creation.routes';
import { projectRoutes } from './routes/projects/projects.routes';
import { roomRoutes } from './routes/rooms/rooms.routes';
import { ssmRoutes } from './routes/ssms/ssms.routes';
import { simulationRoutes } from './routes/simulations/simulations.routes';
import { trialRoutes } from './routes/trials/trials.routes';
import { measurementRoutes } from './routes/measurements/measurements.routes';
import { operatorRoutes } from './routes/operator/operator.routes';
import { simulationOperatorRoutes } from './routes/operator/simulation-operator.routes';
import { subscriptionOperatorRoutes } from './routes/operator/subscription-operator.routes';
import { supportOperatorRoutes } from './routes/operator/support-operator.routes';
import { subscriptionRoutes } from './routes/subscriptions/subscription.routes';
import { supportRoutes } from './routes/support/support.routes';
import { teamRoutes } from './routes/team/team.routes';
import { uploadRoutes } from './routes/uploads/uploads.routes';
import { directUploadRoutes } from './routes/uploads/direct-uploads.routes';
import { storageOrigins } from './repositories/s3-blob.repository';
import { imagingRoutes } from './routes/imaging/imaging.routes';
import { imagingQueueRoutes } from './routes/imaging/imaging-queue.routes';
import { imagingPatientRoutes } from './routes/imaging/imaging-patients.routes';
import { ServiceError } from './services/errors';

export interface BuildAppOptions {
  /** Token for the loopback operator endpoint (embedded database only); null disables it. */
  operatorToken: string | null;
}

/** Paths that stay up during maintenance: sign-in and sign-out, the issuer, health, the notice itself. */
const maintenanceExempt = [
  /^\/api\/auth\//,
  /^\/oidc(\/|$)/,
  /^\/api\/health$/,
  /^\/api\/operator\//,
  /^\/maintenance\.html$/,
  /^\/_fonts\//,
];
/** API paths that may change state without a browser's same-origin proof: none but the operator's. */
const originExempt = [/^\/api\/operator\//];

/**
 * Request URLs as logged: sign-in URLs carry authorization codes, state and ID-token hints in
 * their query, so the query of the sign-in machinery is never written to the log.
 */
export function withoutSecrets(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const path = url.slice(0, query);
  return path.startsWith('/api/auth/') || path.startsWith('/oidc') ? `${path}?[redacted]` : url;
}

/** Source maps (`*.map`, with or without a query) of the web app's build. */
function isSourceMap(url: string): boolean {
  return /\.map$/i.test(url.split('?')[0] ?? '');
}

/** Builds the HTTP server on a context: API, embedded issuer, static web app, docs. */
export async function buildApp(context: AppContext, options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = context;
  const publicOrigin = new URL(config.publicUrl).origin;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
      serializers: {
        req: (request: { method: string; url: string; ip?: string }) => ({
          method: request.method,
          url: withoutSecrets(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const indexFile = join(config.webDistDir, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : null;
  registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    indexHtml,
    connectSources: storageOrigins(config.storage),
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  // An answer ready before the request's body has all arrived (a refusal) waits for it: no reset mid-upload.
  app.addHook('onSend', finishReadingBody);
  // Domain events name the request that caused them (issue 20).
  app.addHook('onRequest', (request, _reply, done) => withRequestContext({ requestId: request.id }, done));

  await app.register(cookie);
  await app.register(swagger, {
    openapi: { info: { title: 'InSilico Workspace API', version: config.version } },
    transform: jsonSchemaTransform,
    hideUntagged: true,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = expandUnionIssues(error.validation);
      return reply.code(400).send({ error: { code: 'bad_request', message: validationMessage(details), details } });
    }
    if (error instanceof ServiceError) {
      return reply
        .code(error.status)
        .send({ error: { code: error.code, message: error.message, details: error.details } });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: { code: 'bad_request', message: error.message } });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.code(404).send({ error: { code: 'not_found', message: 'No such API route.' } });
    }
    if (isSourceMap(request.url)) return reply.code(404).type('text/plain').send('Not found.');
    return sendSpa(reply);
  });

  // Refuse state changes that a browser did not send from our own pages (instead of CSRF tokens).
  app.addHook('onRequest', async (request, reply) => {
    if (!stateChangingMethods.has(request.method) || !request.url.startsWith('/api/')) return;
    if (originExempt.some((pattern) => pattern.test(request.url))) return;
    if (!isSameOriginRequest(request, publicOrigin)) {
      return reply
        .code(403)
        .send({ error: { code: 'cross_origin', message: 'This request must come from the workspace itself.' } });
    }
  });

  // Maintenance mode: pages show the notice, the API answers 503 with the operator's text.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (maintenanceExempt.some((pattern) => pattern.test(path))) return;
    const state = await context.maintenance.current();
    if (!state.maintenance_mode) return;
    reply.header('Retry-After', '300').header('Cache-Control', 'no-store');
    if (path.startsWith('/api/')) {
      return reply.code(503).send({ error: { code: 'maintenance', message: state.maintenance_text } });
    }
    if (/\.(js|css|woff2?|png|svg|ico|map)$/.test(path)) return reply.code(503).send();
    return reply.code(503).type('text/html').send(maintenancePage(state));
  });
  app.get('/maintenance.html', async (_request, reply) =>
    reply
      .header('Cache-Control', 'no-store')
      .type('text/html')
      .send(maintenancePage(await context.maintenance.current())),
  );
  registerFonts(app);

  // Sign-in: the embedded issuer's pages are mounted here unless an external one is configured.
  const cookieSettings: SessionCookieSettings = {
    secure: config.secureCookies,
    maxAgeSeconds: Math.floor(config.sessionAbsoluteMs / 1000),
  };
  if (!context.signIn) throw new Error('This context serves no requests: create it with servesRequests.');
  const { auth } = context.signIn;
  await context.signIn.mountIssuer(app);
  const authenticated = requireUser((request) =>
    auth.currentUser(readSessionToken(request, cookieSettings), addressedWorkspace(request)),
  );
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  await authRoutes(app, {
    auth,
    cookie: cookieSettings,
    publicUrl: config.publicUrl,
    signing: context.signingReauthentication,
  });
  await notificationRoutes(app, {
    notifications: context.notifications,
    authenticated,
    streams,
    activity: context.activity,
  });
  await jobRoutes(app, { jobs: context.jobs, authenticated });
  await deviceRoutes(app, { devices: context.devices, authenticated });
  await teamRoutes(app, { team: context.team, authenticated });
  await subscriptionRoutes(app, { subscriptions: context.subscriptions, authenticated });
  await supportRoutes(app, { support: context.support, authenticated });
  await onboardingRoutes(app, { onboarding: context.onboarding, authenticated });
  await profileRoutes(app, { profiles: context.profiles, authenticated });
  await pictureRoutes(app, { pictures: context.pictures, authenticated });
  await projectRoutes(app, { projects: context.projects, authenticated });
  await cohortRoutes(app, { cohorts: context.cohorts, authenticated });
  await uploadRoutes(app, { uploads: context.uploads, authenticated });
  await directUploadRoutes(app, { uploads: context.uploads, authenticated });
  await imagingRoutes(app, { imaging: context.imaging, authenticated });
  await imagingQueueRoutes(app, { imagingQueue: context.imagingQueue, authenticated });
  await imagingPatientRoutes(app, { imagingPatients: context.imagingPatients, authenticated });
  await deviceVersionRoutes(app, { deviceVersions: context.deviceVersions, authenticated });
  await projectCreationRoutes(app, {
    projectCreation: context.projectCreation,
    projectDrafts: context.projectDrafts,
    questions: context.questions,
    authenticated,
  });
  await analysisRoutes(app, { analyses: context.analyses, authenticated });
  await representativenessRoutes(app, { representativeness: context.representativeness, authenticated });
  await analysisReportRoutes(app, { analysisReports: context.analysisReports, authenticated });
  await commentRoutes(app, { comments: context.comments, authenticated });
  await roomRoutes(app, { rooms: context.rooms, screenshots: context.roomScreenshots, authenticated });
  await simulationRoutes(app, { simulations: context.simulations, authenticated });
  await trialRoutes(app, { trials: context.trials, authenticated });
  await measurementRoutes(app, { measurements: context.measurements, authenticated });
  await ssmRoutes(app, { ssms: context.ssms, authenticated });
  await analyticsRoutes(app, {
    analytics: context.analytics,
    authenticated,
    bodyLimitBytes: config.analytics.bodyLimitBytes,
  });
  await auditRoutes(app, { audit: context.audit, activity: context.activity, authenticated });
  await designHistoryRoutes(app, {
    designHistory: context.designHistory,
    designHistoryExports: context.designHistoryExports,
    resultSnapshots: context.resultSnapshots,
    signingReauthentication: context.signingReauthentication,
    authenticated,
    sessionToken: (request) => readSessionToken(request, cookieSettings),
  });
  await designHistoryAttachmentRoutes(app, { attachments: context.designHistoryAttachments, authenticated });
  await healthRoutes(app, { health: context.health });
  if (options.operatorToken) {
    await operatorRoutes(app, {
      maintenance: context.maintenance,
      mail: context.mail,
      operatorToken: options.operatorToken,
    });
    await subscriptionOperatorRoutes(app, {
      subscriptions: context.subscriptions,
      operatorToken: options.operatorToken,
    });
    await supportOperatorRoutes(app, { supportStaff: context.supportStaff, operatorToken: options.operatorToken });
    await analyticsOperatorRoutes(app, { analytics: context.analytics, operatorToken: options.operatorToken });
    await simulationOperatorRoutes(app, { simulations: context.simulations, operatorToken: options.operatorToken });
    await auditOperatorRoutes(app, { audit: context.audit, operatorToken: options.operatorToken });
  }

  // The web app: hashed assets cached for long, index.html for every other page (client routing).
  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      index: false,
      wildcard: false,
      // The build keeps its source maps for reading error reports; they are not handed out.
      allowedPath: (path) => !isSourceMap(path),
      setHeaders: (res, path) => {
        res.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  function sendSpa(reply: FastifyReply) {
    if (!indexHtml) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app has not been built. Run `npm start` (it builds it) or `npm run build -w @insilico/web`.');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(indexHtml);
  }
  app.get('/', async (_request, reply) => sendSpa(reply));
  return app;
}
