import { z } from 'zod';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { text } from './text';

/**
 * Resumable uploads (tus 1.0.0: core, creation, termination, expiration) at `/api/devices/:deviceId/uploads`.
 * The protocol's own headers carry the offsets; these constants are what server and web agree on.
 * See docs/decisions/uploads-tus.md.
 */

/** The tus protocol version spoken (the only one). */
export const tusVersion = '1.0.0';
/** The tus extensions offered (`Tus-Extension`). */
export const tusExtensions = ['creation', 'termination', 'expiration'] as const;
/** Largest file one upload may hold: 1 GiB, refused at creation (413). */
export const uploadMaxBytes = 1024 * 1024 * 1024;
/** An unfinished or unused upload is removed this long after its last change. */
export const uploadExpiryMs = 24 * 60 * 60 * 1000;
/**
 * What an upload is for (the `purpose` metadata): a device version's model, an imaging dataset (issue 19), or a file
 * attached to a design history entry (issue 20; docs/decisions/design-history-attachments.md).
 */
export const uploadPurposes = ['device_version_model', 'imaging_dataset', 'design_history_attachment'] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];

/** The spec §8 upload failure message (shown with Try again). */
export const uploadFailedMessage = 'Upload failed';
export const uploadTooLargeMessage = 'The file is too big: one file can have at most 1 GB.';

export const uploadParamsSchema = z.object({ deviceId: z.uuid(), uploadId: z.uuid() });

/**
 * Direct uploads (docs/decisions/object-storage.md): with object storage configured, the browser sends an upload's
 * bytes straight into its region's bucket in parts of this size (the last one shorter) by presigned addresses,
 * reports each part the bucket took, and asks the server to complete it; without it the server answers
 * `direct_unavailable` (409) and the bytes go by tus PATCH.
 */
export const directPartBytes = 8 * 1024 * 1024;
/** Part addresses handed out in one answer (ask again for the rest). */
export const directUrlsPerAnswer = 200;
export const directUnavailableMessage = 'Direct uploads need object storage: send the bytes with tus PATCH.';

export const directUploadSchema = z.object({
  partSize: z.number().int().positive(),
  partCount: z.number().int().nonnegative(),
  /** Part numbers storage already holds (a resumed upload sends the others). */
  received: z.array(z.number().int().positive()),
  /** Addresses of parts not yet received, at most `directUrlsPerAnswer`, each good until `urlsExpireAt`. */
  urls: z.array(z.object({ partNumber: z.number().int().positive(), url: z.string() })),
  urlsExpireAt: z.iso.datetime(),
});
export type DirectUpload = z.infer<typeof directUploadSchema>;

export const directPartParamsSchema = uploadParamsSchema.extend({
  partNumber: z.coerce.number().int().min(1).max(10_000),
});
/** What the browser reports after storage took a part: its ETag (from the PUT's answer) and its size. */
export const directPartSchema = z.object({
  etag: text().trim().min(1).max(200),
  bytes: z.number().int().nonnegative(),
});
export type DirectPart = z.infer<typeof directPartSchema>;

export const directCompletedSchema = z.object({ offset: z.number().int(), length: z.number().int() });
export type DirectCompleted = z.infer<typeof directCompletedSchema>;

const uploadsPath = '/api/devices/:deviceId/uploads';
const uploadPath = `${uploadsPath}/:uploadId` as const;
const directPath = `${uploadPath}/direct` as const;

/**
 * Resumable uploads of a workspace (tus 1.0.0, docs/decisions/uploads-tus.md) and their direct variant into object
 * storage (docs/decisions/endpoints-in-contracts.md). tus speaks in headers, not JSON; its OPTIONS (capabilities)
 * and HEAD (offset) are served on the paths of `create` and `send`.
 */
export const uploadEndpoints = {
  /** tus creation: `Upload-Length`, `Upload-Metadata`; answers 201 with the upload's `Location`. */
  create: endpoint({ method: 'POST', path: uploadsPath, params: deviceParamsSchema }),
  /** Bytes at the upload's offset (`application/offset+octet-stream`). */
  send: endpoint({ method: 'PATCH', path: uploadPath, params: uploadParamsSchema }),
  terminate: endpoint({ method: 'DELETE', path: uploadPath, params: uploadParamsSchema }),
  direct: endpoint({
    method: 'POST',
    path: directPath,
    params: uploadParamsSchema,
    response: { 200: directUploadSchema },
  }),
  directPart: endpoint({
    method: 'PUT',
    path: `${directPath}/parts/:partNumber`,
    params: directPartParamsSchema,
    body: directPartSchema,
  }),
  completeDirect: endpoint({
    method: 'POST',
    path: `${directPath}/complete`,
    params: uploadParamsSchema,
    response: { 200: directCompletedSchema },
  }),
};
