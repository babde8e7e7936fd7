import { imagingEndpoints as endpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestBody } from '../../http/request-body';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ImagingQueueService } from '../../services/imaging-queue.service';

export interface ImagingQueueRoutesDeps {
  imagingQueue: ImagingQueueService;
  authenticated: ReturnType<typeof requireUser>;
}

/**
 * The support staff's modelling queue (issue 19 item 7): datasets waiting for patient models, their zip, and the
 * delivery of the models (the .zip as the raw body, checked before the dataset becomes ready).
 */
export async function imagingQueueRoutes(app: FastifyInstance, deps: ImagingQueueRoutesDeps): Promise<void> {
  await app.register(async (scope) => {
    // The models' zip reaches the delivery as the raw request stream, never buffered.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['imaging'];
    const preHandler = deps.authenticated;

    route(api, endpoints.queue, { preHandler, schema: { tags } }, async (request) =>
      deps.imagingQueue.queue(currentUser(request).id, request.query.status),
    );

    route(
      api,
      endpoints.download,
      { preHandler, schema: { tags, summary: "The dataset's de-identified zip" } },
      async (request, reply) => {
        const file = await deps.imagingQueue.download(currentUser(request).id, request.params.datasetId);
        return reply
          .type('application/zip')
          .header('Content-Length', String(file.bytes))
          .header('Content-Disposition', `attachment; filename="${file.name}"`)
          .header('Cache-Control', 'no-store')
          .send(file.stream);
      },
    );

    route(
      api,
      endpoints.deliverModels,
      {
        preHandler,
        schema: {
          tags,
          summary:
            'Deliver the patient models (.zip as the body): stored, and checked by a job; the dataset becomes ready when they pass',
        },
      },
      async (request, reply) => {
        const answer = await deps.imagingQueue.deliverModels(
          currentUser(request).id,
          request.params.datasetId,
          requestBody(request),
        );
        return reply.code(202).send(answer);
      },
    );
  });
}
