import {
  analyticsConsentCookie,
  analyticsEndpoints,
  analyticsIngestPath,
  analyticsReportSchema,
  analyticsSuccessBody,
  analyticsUploadFormSchema,
} from '@insilico/contracts/analytics';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import { requireOperator } from '../../policies/operator';
import type { AnalyticsService } from '../../services/analytics.service';

export interface AnalyticsRoutesDeps {
  analytics: AnalyticsService;
  authenticated: ReturnType<typeof requireUser>;
  /** Answers 413 above it, before anything is parsed (the client then halves its batch). */
  bodyLimitBytes: number;
}

/**
 * Product analytics (issue 21, docs/decisions/analytics.md): the web client's configuration and our ingestion of
 * the legacy HTTP API v2 form (`client`, `e`, `v`, `upload_time`, `checksum`; 200 `success`). Same origin (the
 * app's rule for every POST; sendBeacon sends the Origin), a signed-in user, and the consent cookie.
 */
export async function analyticsRoutes(app: FastifyInstance, deps: AnalyticsRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['analytics'];

  route(
    api,
    analyticsEndpoints.config,
    { schema: { tags, summary: 'The key the web client signs its uploads with' } },
    async () => deps.analytics.config(),
  );

  // The operator page (issue 21 item 6): who may see it, the report and the received events, a page at a time.
  route(
    api,
    analyticsEndpoints.access,
    { preHandler: deps.authenticated, schema: { tags, summary: 'Whether the signed-in user may read the analytics' } },
    async (request) => deps.analytics.access(currentUser(request).id),
  );
  route(
    api,
    analyticsEndpoints.report,
    {
      preHandler: deps.authenticated,
      schema: { tags, summary: 'Events per day, active users, the funnel and the features (operators only)' },
    },
    async (request) => deps.analytics.reportFor(currentUser(request).id, request.query.days),
  );
  route(
    api,
    analyticsEndpoints.events,
    {
      preHandler: deps.authenticated,
      schema: { tags, summary: 'The received events, newest first, a page at a time (operators only)' },
    },
    async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send(await deps.analytics.events(currentUser(request).id, request.query)),
  );

  await app.register(async (scope) => {
    // The wire format is a form (what sendBeacon sends with URLSearchParams); the rest of the API speaks JSON.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: deps.bodyLimitBytes },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      analyticsIngestPath,
      {
        preHandler: deps.authenticated,
        bodyLimit: deps.bodyLimitBytes,
        schema: {
          tags,
          summary: 'Receive analytics events (HTTP API v2 form); answers the text success',
          consumes: ['application/x-www-form-urlencoded'],
          body: analyticsUploadFormSchema,
        },
      },
      async (request, reply) => {
        if (request.cookies[analyticsConsentCookie] === undefined)
          return reply.code(403).send({
            error: { code: 'analytics_consent', message: 'Analytics consent is not given in this browser.' },
          });
        const user = currentUser(request);
        await deps.analytics.ingest({ id: user.id, email: user.email }, request.body);
        return reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(analyticsSuccessBody);
      },
    );
  });
}

/** `npm run operator -- analytics` while an embedded-database server runs (loopback and the DATA_DIR token). */
export async function analyticsOperatorRoutes(
  app: FastifyInstance,
  deps: { analytics: AnalyticsService; operatorToken: string },
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/operator/analytics',
    {
      preHandler: requireOperator(deps.operatorToken),
      schema: {
        hide: true,
        querystring: z.object({ days: z.coerce.number() }),
        response: { 200: analyticsReportSchema },
      },
    },
    async (request) => deps.analytics.report(request.query.days),
  );
  // `npm run operator -- operators [<e-mail> on|off]`: who reads the analytics in the browser.
  app.get(
    '/api/operator/operators',
    { preHandler: requireOperator(deps.operatorToken), schema: { hide: true } },
    async () => ({
      items: await deps.analytics.operators(),
    }),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/operator/operators',
    {
      preHandler: requireOperator(deps.operatorToken),
      schema: { hide: true, body: z.object({ email: z.email(), isOperator: z.boolean() }) },
    },
    async (request) => ({ items: await deps.analytics.setOperator(request.body.email, request.body.isOperator) }),
  );
}
