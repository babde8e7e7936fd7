import { z } from 'zod';

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
/** What an upload is for (the `purpose` metadata): a device version's model, or an imaging dataset (issue 19). */
export const uploadPurposes = ['device_version_model', 'imaging_dataset'] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];

/** The spec §8 upload failure message (shown with Try again). */
export const uploadFailedMessage = 'Upload failed';
export const uploadTooLargeMessage = 'The file is too big: one file can have at most 1 GB.';

export const uploadParamsSchema = z.object({ deviceId: z.uuid(), uploadId: z.uuid() });
