import {
  attachUploadSchema,
  attachmentUploadQuerySchema,
  designHistoryAttachmentParamsSchema,
  designHistoryAttachmentSchema,
} from './design-history-attachments';
import {
  designHistoryEntryParamsSchema,
  designHistoryEntryPatchSchema,
  designHistoryEntrySchema,
  designHistoryExportListSchema,
  designHistoryExportParamsSchema,
  designHistoryExportQuerySchema,
  designHistoryFileRequestSchema,
  designHistoryListSchema,
  designHistoryQuerySchema,
  newDesignHistoryEntrySchema,
  resultSnapshotParamsSchema,
  resultSnapshotSchema,
  signatureSchema,
  signRequestSchema,
} from './design-history';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { reauthenticationRequestSchema, reauthenticationSchema } from './signing-reauthentication';

const designHistoryPath = '/api/devices/:deviceId/design-history';
const entryPath = `${designHistoryPath}/entries/:entryId`;

/**
 * The design history file of a workspace's projects (issue 20 items 4–6; docs/decisions/endpoints-in-contracts.md):
 * in a file of its own because it joins the entries', the attachments' and the signing's schemas.
 */
export const designHistoryEndpoints = {
  /** The timeline, newest first, paged by `before`. */
  list: endpoint({
    method: 'GET',
    path: designHistoryPath,
    params: deviceParamsSchema,
    query: designHistoryQuerySchema,
    response: { 200: designHistoryListSchema },
  }),
  /** The timeline as CSV (its project, or every project the caller sees). */
  exportCsv: endpoint({
    method: 'GET',
    path: `${designHistoryPath}/export`,
    params: deviceParamsSchema,
    query: designHistoryExportQuerySchema,
  }),
  /** The file as PDF or evidence ZIP (200, the file), or 202 with an export made by a job for a large history. */
  requestFile: endpoint({
    method: 'POST',
    path: `${designHistoryPath}/exports`,
    params: deviceParamsSchema,
    body: designHistoryFileRequestSchema,
  }),
  /** The caller's files made by a job, newest first. */
  exports: endpoint({
    method: 'GET',
    path: `${designHistoryPath}/exports`,
    params: deviceParamsSchema,
    response: { 200: designHistoryExportListSchema },
  }),
  /** A file made by a job (its requester only). */
  exportFile: endpoint({
    method: 'GET',
    path: `${designHistoryPath}/exports/:exportId/file`,
    params: designHistoryExportParamsSchema,
  }),
  resultSnapshot: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId/result-snapshots/:snapshotId',
    params: resultSnapshotParamsSchema,
    response: { 200: resultSnapshotSchema },
  }),
  addEntry: endpoint({
    method: 'POST',
    path: `${designHistoryPath}/entries`,
    params: deviceParamsSchema,
    body: newDesignHistoryEntrySchema,
    response: { 201: designHistoryEntrySchema },
  }),
  editEntry: endpoint({
    method: 'PATCH',
    path: entryPath,
    params: designHistoryEntryParamsSchema,
    body: designHistoryEntryPatchSchema,
    response: { 200: designHistoryEntrySchema },
  }),
  /** A file as the raw body (`?name=`, its type the Content-Type). */
  attach: endpoint({
    method: 'POST',
    path: `${entryPath}/attachments`,
    params: designHistoryEntryParamsSchema,
    query: attachmentUploadQuerySchema,
    response: { 201: designHistoryAttachmentSchema },
  }),
  /** A finished resumable upload (tus, purpose `design_history_attachment`) attached to the entry. */
  attachUpload: endpoint({
    method: 'POST',
    path: `${entryPath}/attachments/uploaded`,
    params: designHistoryEntryParamsSchema,
    body: attachUploadSchema,
    response: { 201: designHistoryAttachmentSchema },
  }),
  attachment: endpoint({
    method: 'GET',
    path: `${entryPath}/attachments/:attachmentId`,
    params: designHistoryAttachmentParamsSchema,
  }),
  sign: endpoint({
    method: 'POST',
    path: `${designHistoryPath}/signatures`,
    params: deviceParamsSchema,
    body: signRequestSchema,
    response: { 201: signatureSchema },
  }),
  /** With an external identity provider: the provider's address for a fresh sign-in, after which the callback signs. */
  beginIssuerSigning: endpoint({
    method: 'POST',
    path: `${designHistoryPath}/signatures/reauthentication`,
    params: deviceParamsSchema,
    body: reauthenticationRequestSchema,
    response: { 201: reauthenticationSchema },
  }),
};
