import { trialEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
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
  const pre = { preHandler: deps.authenticated, schema: { tags: ['trials'] } };
  const userId = (request: Parameters<typeof currentUser>[0]) => currentUser(request).id;

  route(api, endpoints.list, pre, async (request) =>
    deps.trials.list(userId(request), request.params.deviceId, request.params.projectId),
  );

  route(api, endpoints.setup, pre, async (request) =>
    deps.trials.setup(userId(request), request.params.deviceId, request.params.projectId),
  );

  route(api, endpoints.create, pre, async (request, reply) => {
    const { deviceId, projectId } = request.params;
    return reply.code(201).send(await deps.trials.create(userId(request), deviceId, projectId, request.body));
  });

  route(api, endpoints.get, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.get(userId(request), deviceId, projectId, trialId);
  });

  route(api, endpoints.update, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.update(userId(request), deviceId, projectId, trialId, request.body);
  });

  route(api, endpoints.remove, pre, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    await deps.trials.remove(userId(request), deviceId, projectId, trialId);
    return reply.code(204).send();
  });

  route(api, endpoints.reports, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.reports(userId(request), deviceId, projectId, trialId);
  });

  route(api, endpoints.requestReport, pre, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    return reply.code(202).send(await deps.trials.requestReport(userId(request), deviceId, projectId, trialId));
  });

  route(api, endpoints.reportPdf, pre, async (request, reply) => {
    const { deviceId, projectId, trialId, reportId } = request.params;
    const file = await deps.trials.reportFile(userId(request), deviceId, projectId, trialId, reportId);
    return reply
      .type('application/pdf')
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      .header('ETag', `"${file.sha256}"`)
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .send(file.bytes);
  });

  route(api, endpoints.cancel, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.cancel(userId(request), deviceId, projectId, trialId);
  });

  route(api, endpoints.retry, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.retry(userId(request), deviceId, projectId, trialId, request.body.placement);
  });

  route(api, endpoints.rerun, pre, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    return reply.code(201).send(await deps.trials.rerun(userId(request), deviceId, projectId, trialId, request.body));
  });

  route(api, endpoints.replaceCustomOutcomes, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.replaceCustomOutcomes(userId(request), deviceId, projectId, trialId, request.body);
  });

  route(api, endpoints.outcomesCsv, pre, async (request, reply) => {
    const { deviceId, projectId, trialId } = request.params;
    const { fileName, text } = await deps.trials.outcomesCsv(userId(request), deviceId, projectId, trialId);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('Cache-Control', 'no-store')
      .send(text);
  });

  route(api, endpoints.outcomes, pre, async (request) => {
    const { deviceId, projectId, trialId } = request.params;
    return deps.trials.outcomeColumns(userId(request), deviceId, projectId, trialId);
  });
}
