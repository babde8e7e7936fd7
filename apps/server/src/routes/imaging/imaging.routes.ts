import {
  createImagingDatasetSchema,
  deviceParamsSchema,
  imagingDatasetListSchema,
  imagingDatasetParamsSchema,
  imagingDatasetSchema,
} from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ImagingService } from '../../services/imaging.service';

export interface ImagingRoutesDeps {
  imaging: ImagingService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Imaging datasets of a workspace (issue 19): made from a finished upload of the de-identified zip, listed, shown. */
export async function imagingRoutes(app: FastifyInstance, deps: ImagingRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['imaging'];
  const base = '/api/devices/:deviceId/imaging-datasets';
  const pre = { preHandler: deps.authenticated };

  api.post(
    base,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: createImagingDatasetSchema,
        response: { 201: imagingDatasetSchema },
        summary: 'Make an imaging dataset from a finished upload; the server re-checks it in the background',
      },
    },
    async (request, reply) =>
      reply.code(201).send(await deps.imaging.create(currentUser(request).id, request.params.deviceId, request.body)),
  );

  api.get(
    base,
    { ...pre, schema: { tags, params: deviceParamsSchema, response: { 200: imagingDatasetListSchema } } },
    async (request) => ({ items: await deps.imaging.list(currentUser(request).id, request.params.deviceId) }),
  );

  api.get(
    `${base}/:datasetId`,
    { ...pre, schema: { tags, params: imagingDatasetParamsSchema, response: { 200: imagingDatasetSchema } } },
    async (request) => deps.imaging.get(currentUser(request).id, request.params.deviceId, request.params.datasetId),
  );
}
