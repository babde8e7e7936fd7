import {
  createTrialSchema,
  projectSimulationsParamsSchema,
  replaceCustomOutcomesSchema,
  rerunTrialSchema,
  retryTrialSchema,
  trialDetailSchema,
  trialListSchema,
  trialOutcomeColumnsSchema,
  trialParamsSchema,
  trialReportListSchema,
  trialReportParamsSchema,
  trialReportSchema,
  trialSetupSchema,
  updateTrialSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { TrialService } from '../../services/trial.service';

export interface TrialRoutesDeps {
  trials: TrialService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * In-silico trials (issue 17): the project's trials, create, one trial with its patients, acceptance criteria and
 * automatic re-run, delete, cancel, retry of the failed patients, re-run, reports (PDF), changing the user's outcomes,
 * and a trial's outcomes as
 * cohort parameters. Thin: the service checks permissions and every input. See
 * docs/decisions/trials.md.
 */
export async function trialRoutes(app: FastifyInstance, deps: TrialRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['trials'];
  const base = '/api/devices/:deviceId/projects/:projectId/trials';
  const one = `${base}/:trialId`;
  const pre = { preHandler: deps.authenticated };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  api.get(
    base,
    { ...pre, schema: { tags, params: projectSimulationsParamsSchema, response: { 200: trialListSchema } } },
    async (request) => deps.trials.list(userId(request), request.params.deviceId, request.params.projectId),
  );

  api.get(
    `${base}/setup`,
    { ...pre, schema: { tags, params: projectSimulationsParamsSchema, response: { 200: trialSetupSchema } } },
    async (request) => deps.trials.setup(userId(request), request.params.deviceId, request.params.projectId),
  );

  api.post(
    base,
    {
      ...pre,
      schema: {
        tags,
        params: projectSimulationsParamsSchema,
        body: createTrialSchema,
        response: { 201: trialDetailSchema },
      },
    },
    async (request, reply) => {
      const { deviceId, projectId } = request.params;
      return reply.code(201).send(await deps.trials.create(userId(request), deviceId, projectId, request.body));
    },
  );

  api.get(
    one,
    { ...pre, schema: { tags, params: trialParamsSchema, response: { 200: trialDetailSchema } } },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.get(userId(request), deviceId, projectId, trialId);
    },
  );

  api.patch(
    one,
    {
      ...pre,
      schema: { tags, params: trialParamsSchema, body: updateTrialSchema, response: { 200: trialDetailSchema } },
    },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.update(userId(request), deviceId, projectId, trialId, request.body);
    },
  );

  api.delete(one, { ...pre, schema: { tags, params: trialParamsSchema } }, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    await deps.trials.remove(userId(request), deviceId, projectId, trialId);
    return reply.code(204).send();
  });

  api.get(
    `${one}/reports`,
    { ...pre, schema: { tags, params: trialParamsSchema, response: { 200: trialReportListSchema } } },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.reports(userId(request), deviceId, projectId, trialId);
    },
  );

  api.post(
    `${one}/reports`,
    { ...pre, schema: { tags, params: trialParamsSchema, response: { 202: trialReportSchema } } },
    async (request, reply) => {
      const { deviceId, projectId, trialId } = request.params;
      return reply.code(202).send(await deps.trials.requestReport(userId(request), deviceId, projectId, trialId));
    },
  );

  api.get(
    `${one}/reports/:reportId/pdf`,
    { ...pre, schema: { tags, params: trialReportParamsSchema } },
    async (request, reply) => {
      const { deviceId, projectId, trialId, reportId } = request.params;
      const file = await deps.trials.reportFile(userId(request), deviceId, projectId, trialId, reportId);
      return reply
        .type('application/pdf')
        .header('Cache-Control', 'private, max-age=31536000, immutable')
        .header('ETag', `"${file.sha256}"`)
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(file.bytes);
    },
  );

  api.post(
    `${one}/cancel`,
    { ...pre, schema: { tags, params: trialParamsSchema, response: { 200: trialDetailSchema } } },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.cancel(userId(request), deviceId, projectId, trialId);
    },
  );

  api.post(
    `${one}/retry`,
    {
      ...pre,
      schema: { tags, params: trialParamsSchema, body: retryTrialSchema, response: { 200: trialDetailSchema } },
    },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.retry(userId(request), deviceId, projectId, trialId, request.body.placement);
    },
  );

  api.post(
    `${one}/rerun`,
    {
      ...pre,
      schema: { tags, params: trialParamsSchema, body: rerunTrialSchema, response: { 201: trialDetailSchema } },
    },
    async (request, reply) => {
      const { deviceId, projectId, trialId } = request.params;
      return reply.code(201).send(await deps.trials.rerun(userId(request), deviceId, projectId, trialId, request.body));
    },
  );

  api.put(
    `${one}/custom-outcomes`,
    {
      ...pre,
      schema: {
        tags,
        params: trialParamsSchema,
        body: replaceCustomOutcomesSchema,
        response: { 200: trialDetailSchema },
      },
    },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.replaceCustomOutcomes(userId(request), deviceId, projectId, trialId, request.body);
    },
  );

  api.get(`${one}/outcomes.csv`, { ...pre, schema: { tags, params: trialParamsSchema } }, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    const { fileName, text } = await deps.trials.outcomesCsv(userId(request), deviceId, projectId, trialId);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('Cache-Control', 'no-store')
      .send(text);
  });

  api.get(
    `${one}/outcomes`,
    { ...pre, schema: { tags, params: trialParamsSchema, response: { 200: trialOutcomeColumnsSchema } } },
    async (request) => {
      const { deviceId, projectId, trialId } = request.params;
      return deps.trials.outcomeColumns(userId(request), deviceId, projectId, trialId);
    },
  );
}
