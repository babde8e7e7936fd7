import { imagingEndpoints as endpoints } from '@insilico/contracts';
import { open, type FileHandle } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { ImagingService } from '../../services/imaging.service';
import { ServiceError } from '../../services/errors';

export interface ImagingRoutesDeps {
  imaging: ImagingService;
  authenticated: ReturnType<typeof requireUser>;
}

/** Imaging datasets of a workspace (issue 19): made from a finished upload of the de-identified zip, listed, shown. */
export async function imagingRoutes(app: FastifyInstance, deps: ImagingRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['imaging'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };

  route(
    api,
    endpoints.create,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Make an imaging dataset from a finished upload; the server re-checks it in the background',
      },
    },
    async (request, reply) =>
      reply.code(201).send(await deps.imaging.create(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.list, pre, async (request) => ({
    items: await deps.imaging.list(currentUser(request).id, request.params.deviceId),
  }));

  route(api, endpoints.get, pre, async (request) =>
    deps.imaging.get(currentUser(request).id, request.params.deviceId, request.params.datasetId),
  );

  // The dataset's zip by byte ranges (RFC 9110 single ranges): the slice viewer reads the central directory and
  // then the entries of one series, never the whole zip.
  route(
    api,
    endpoints.file,
    { ...pre, schema: { tags, summary: "The dataset's zip, by Range" } },
    async (request, reply) => {
      const file = await deps.imaging.file(currentUser(request).id, request.params.deviceId, request.params.datasetId);
      const { bytes } = file;
      let range: { start: number; end: number } | null;
      let handle: FileHandle;
      try {
        range = byteRange(request.headers.range, bytes);
        // Once open, the bytes are ours whatever a local cache does with the name: the hold ends here.
        handle = await open(file.path, 'r');
      } finally {
        await file.release();
      }
      reply.header('Accept-Ranges', 'bytes').header('Cache-Control', 'private, no-store').type('application/zip');
      if (!range) return reply.header('Content-Length', String(bytes)).send(handle.createReadStream());
      return reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${bytes}`)
        .header('Content-Length', String(range.end - range.start + 1))
        .send(handle.createReadStream(range));
    },
  );
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` within the file; none asked: null; anything else: 416. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  const unsatisfiable = () =>
    new ServiceError(416, 'range_not_satisfiable', `Range ${header} is not within ${size} bytes.`);
  if (!match || (match[1] === '' && match[2] === '')) throw unsatisfiable();
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) throw unsatisfiable();
  return { start, end };
}
