import {
  designHistoryEntryParamsSchema,
  designHistoryEntryPatchSchema,
  designHistoryEntrySchema,
  designHistoryExportListSchema,
  designHistoryExportParamsSchema,
  designHistoryExportSchema,
  designHistoryExportQuerySchema,
  designHistoryFileHashHeader,
  designHistoryFileRequestSchema,
  designHistoryListSchema,
  designHistoryQuerySchema,
  deviceParamsSchema,
  newDesignHistoryEntrySchema,
  resultSnapshotParamsSchema,
  resultSnapshotSchema,
  reauthenticationRequestSchema,
  reauthenticationSchema,
  signatureSchema,
  signRequestSchema,
} from '@insilico/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
  const base = '/api/devices/:deviceId/design-history';
  const pre = { preHandler: deps.authenticated };
  const signingContext = (request: FastifyRequest): SigningContext => ({
    sessionToken: deps.sessionToken(request),
    clientAddress: request.ip,
  });

  api.get(
    base,
    {
      ...pre,
      schema: {
        tags,
        summary: 'The design history timeline, newest first, with entries and signatures',
        params: deviceParamsSchema,
        querystring: designHistoryQuerySchema,
        response: { 200: designHistoryListSchema },
      },
    },
    async (request) =>
      deps.designHistory.list(currentUser(request), request.params.deviceId, request.query, signingContext(request)),
  );

  api.get(
    `${base}/export`,
    { ...pre, schema: { tags, params: deviceParamsSchema, querystring: designHistoryExportQuerySchema } },
    async (request, reply) => {
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
    },
  );

  const sendFile = (
    reply: FastifyReply,
    format: string,
    file: { bytes: Uint8Array; fileName: string; sha256: string },
  ) =>
    reply
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header(designHistoryFileHashHeader, file.sha256)
      .type(format === 'pdf' ? 'application/pdf' : 'application/zip')
      .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));

  api.post(
    `${base}/exports`,
    {
      ...pre,
      schema: {
        tags,
        summary:
          'The design history file as PDF, or a ZIP of it with the evidence and SHA-256 hashes (recorded); ' +
          'a large history answers 202 with an export made by a job',
        params: deviceParamsSchema,
        body: designHistoryFileRequestSchema,
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

  api.get(
    `${base}/exports`,
    {
      ...pre,
      schema: {
        tags,
        summary: "The caller's design history files made by a job, newest first",
        params: deviceParamsSchema,
        response: { 200: designHistoryExportListSchema },
      },
    },
    async (request) => deps.designHistoryExports.list(currentUser(request).id, request.params.deviceId),
  );

  api.get(
    `${base}/exports/:exportId/file`,
    {
      ...pre,
      schema: {
        tags,
        summary: 'A design history file made by a job: its requester only, while they may read what it holds',
        params: designHistoryExportParamsSchema,
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

  api.get(
    '/api/devices/:deviceId/result-snapshots/:snapshotId',
    {
      ...pre,
      schema: {
        tags,
        summary: 'Results kept as a snapshot when evidence entered the design history, with their SHA-256',
        params: resultSnapshotParamsSchema,
        response: { 200: resultSnapshotSchema },
      },
    },
    async (request) =>
      deps.resultSnapshots.get(currentUser(request).id, request.params.deviceId, request.params.snapshotId),
  );

  api.post(
    `${base}/entries`,
    {
      ...pre,
      schema: {
        tags,
        params: deviceParamsSchema,
        body: newDesignHistoryEntrySchema,
        response: { 201: designHistoryEntrySchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await deps.designHistory.addEntry(currentUser(request).id, request.params.deviceId, request.body)),
  );

  api.patch(
    `${base}/entries/:entryId`,
    {
      ...pre,
      schema: {
        tags,
        params: designHistoryEntryParamsSchema,
        body: designHistoryEntryPatchSchema,
        response: { 200: designHistoryEntrySchema },
      },
    },
    async (request) =>
      deps.designHistory.editEntry(
        currentUser(request).id,
        request.params.deviceId,
        request.params.entryId,
        request.body,
      ),
  );

  api.post(
    `${base}/signatures`,
    {
      ...pre,
      schema: {
        tags,
        summary: 'Sign an entry or an evidence snapshot; the password is re-entered (and the e-mail at first)',
        params: deviceParamsSchema,
        body: signRequestSchema,
        response: { 201: signatureSchema },
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

  api.post(
    `${base}/signatures/reauthentication`,
    {
      ...pre,
      schema: {
        tags,
        summary:
          'With an external identity provider: begin signing a record; answers the provider’s address for a fresh sign-in (prompt=login, max_age=0), after which the callback signs',
        params: deviceParamsSchema,
        body: reauthenticationRequestSchema,
        response: { 201: reauthenticationSchema },
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
