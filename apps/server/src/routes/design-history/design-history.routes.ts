import {
  designHistoryEndpoints as endpoints,
  designHistoryExportSchema,
  designHistoryFileHashHeader,
} from '@insilico/contracts';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { DesignHistoryService, SigningContext } from '../../services/design-history.service';
import type { DesignHistoryExportService } from '../../services/design-history-exports';
import type { ResultSnapshotService } from '../../services/result-snapshot.service';
import type { SigningReauthenticationService } from '../../services/signing-reauthentication.service';

export interface DesignHistoryRoutesDeps {
  designHistory: DesignHistoryService;
  /** The file of a large history is made by a job and downloaded later (design-history-exports.ts). */
  designHistoryExports: DesignHistoryExportService;
  resultSnapshots: ResultSnapshotService;
  /** Signing with an external identity provider: a fresh sign-in there stands in for the password. */
  signingReauthentication: SigningReauthenticationService;
  authenticated: ReturnType<typeof requireUser>;
  /** The request's session token (the first signing of a session asks for both sign-in components). */
  sessionToken: (request: FastifyRequest) => string | null;
}

/**
 * The design history file of a workspace's projects (issue 20 item 4): the timeline, manual entries, the CSV export,
 * the file as PDF or evidence ZIP (item 6); electronic signatures with the password re-entered (item 5).
 */
export async function designHistoryRoutes(app: FastifyInstance, deps: DesignHistoryRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['design-history'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };
  const signingContext = (request: FastifyRequest): SigningContext => ({
    sessionToken: deps.sessionToken(request),
    clientAddress: request.ip,
  });

  route(
    api,
    endpoints.list,
    { ...pre, schema: { tags, summary: 'The design history timeline, newest first, with entries and signatures' } },
    async (request) =>
      deps.designHistory.list(currentUser(request), request.params.deviceId, request.query, signingContext(request)),
  );

  route(api, endpoints.exportCsv, pre, async (request, reply) => {
    const body = await deps.designHistory.exportCsv(
      currentUser(request),
      request.params.deviceId,
      request.query.projectId,
    );
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="design-history-${day}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(body);
  });

  const sendFile = (
    reply: FastifyReply,
    format: string,
    file: { fileName: string; sha256: string } & (
      | { bytes: Uint8Array }
      | { stream: Readable; bytes: number } // a stored file (an evidence ZIP may carry gigabytes)
    ),
  ) =>
    reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header(designHistoryFileHashHeader, file.sha256)
      .header('Content-Length', String(typeof file.bytes === 'number' ? file.bytes : file.bytes.byteLength))
      .type(format === 'pdf' ? 'application/pdf' : 'application/zip')
      .send(
        'stream' in file ? file.stream : Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
      );

  route(
    api,
    endpoints.requestFile,
    {
      ...pre,
      schema: {
        tags,
        summary:
          'The design history file as PDF, or a ZIP of it with the evidence and SHA-256 hashes (recorded); ' +
          'a large history answers 202 with an export made by a job',
      },
    },
    async (request, reply) => {
      const answer = await deps.designHistoryExports.request(
        currentUser(request),
        request.params.deviceId,
        request.body,
      );
      if (answer.kind === 'queued') return reply.code(202).send(designHistoryExportSchema.parse(answer.export));
      return sendFile(reply, request.body.format, answer.file);
    },
  );

  route(
    api,
    endpoints.exports,
    { ...pre, schema: { tags, summary: "The caller's design history files made by a job, newest first" } },
    async (request) => deps.designHistoryExports.list(currentUser(request).id, request.params.deviceId),
  );

  route(
    api,
    endpoints.exportFile,
    {
      ...pre,
      schema: {
        tags,
        summary: 'A design history file made by a job: its requester only, while they may read what it holds',
      },
    },
    async (request, reply) => {
      const file = await deps.designHistoryExports.download(
        currentUser(request),
        request.params.deviceId,
        request.params.exportId,
      );
      return sendFile(reply, file.format, file);
    },
  );

  route(
    api,
    endpoints.resultSnapshot,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Results kept as a snapshot when evidence entered the design history, with their SHA-256',
      },
    },
    async (request) =>
      deps.resultSnapshots.get(currentUser(request).id, request.params.deviceId, request.params.snapshotId),
  );

  route(api, endpoints.addEntry, pre, async (request, reply) =>
    reply
      .code(201)
      .send(await deps.designHistory.addEntry(currentUser(request).id, request.params.deviceId, request.body)),
  );

  route(api, endpoints.editEntry, pre, async (request) =>
    deps.designHistory.editEntry(
      currentUser(request).id,
      request.params.deviceId,
      request.params.entryId,
      request.body,
    ),
  );

  route(
    api,
    endpoints.sign,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Sign an entry or an evidence snapshot; the password is re-entered (and the e-mail at first)',
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await deps.designHistory.sign(
            currentUser(request),
            request.params.deviceId,
            request.body,
            signingContext(request),
          ),
        ),
  );

  route(
    api,
    endpoints.beginIssuerSigning,
    {
      ...pre,
      schema: {
        tags,
        summary:
          'With an external identity provider: begin signing a record; answers the provider’s address for a fresh sign-in (prompt=login, max_age=0), after which the callback signs',
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reply
        .code(201)
        .send(
          await deps.signingReauthentication.begin(
            currentUser(request),
            request.params.deviceId,
            request.body,
            deps.sessionToken(request),
          ),
        );
    },
  );
}
