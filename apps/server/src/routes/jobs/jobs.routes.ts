import { jobSchema } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { JobService } from '../../services/job.service';

export interface JobRoutesDeps {
  jobs: JobService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Durable jobs: read progress of one's own jobs; start the job system's self-check. */
export async function jobRoutes(app: FastifyInstance, deps: JobRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/jobs/:id',
    {
      preHandler: deps.authenticated,
      schema: { tags: ['jobs'], params: z.object({ id: z.uuid() }), response: { 200: jobSchema } },
    },
    async (request) => deps.jobs.findForUser(currentUser(request).id, request.params.id),
  );

  api.post(
    '/api/jobs/self-check',
    {
      preHandler: deps.authenticated,
      schema: {
        tags: ['jobs'],
        summary: 'Runs a short job that ends in a notification: shows that workers are alive',
        body: z.object({ seconds: z.number().int().min(1).max(120).default(5) }),
        response: { 202: jobSchema },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await deps.jobs.startSelfCheck(currentUser(request).id, request.body.seconds)),
  );
}
