import { z } from 'zod';
import { text } from './text';
import { uploadMaxBytes } from './uploads';

/**
 * Files attached to a design history entry (issue 20 item 4: "title, kind, text, attachments, links to evidence"):
 * uploaded as the raw body of `POST …/design-history/entries/:entryId/attachments?name=`, kept immutably under the
 * SHA-256 of their bytes in the workspace's region, listed with the entry and part of what a signature of the entry
 * binds. Files can be attached only while nobody has signed the entry; an attachment is never changed or removed.
 */

/** The largest file sent as one request's body (`POST …/attachments?name=`). */
export const attachmentMaxBytes = 100 * 1024 * 1024;
/**
 * The largest file attached from a resumable upload (tus, purpose `design_history_attachment`, then
 * `POST …/attachments/uploaded`): the uploads' own limit, refused when the upload is created.
 */
export const attachmentUploadMaxBytes = uploadMaxBytes;
export const attachmentNameMaxLength = 200;
export const attachmentsPerEntryMax = 20;

export const attachmentTooBigMessage = 'A file attached to an entry can be at most 100 MB.';
export const attachmentEmptyMessage = 'The file is empty. Choose a file with content to attach.';
export const attachmentNameMessage = `Give the file a name of at most ${attachmentNameMaxLength} characters, without slashes or control characters.`;
export const attachmentTypeMessage = 'The file’s content type is not valid (e.g. application/pdf).';
export const attachmentSignedMessage =
  'This entry is signed: no file can be attached to it any more. Add a new entry that supersedes it instead.';
export const attachmentDuplicateMessage = 'This file is attached to this entry already.';
export const attachmentsTooManyMessage = `An entry can have at most ${attachmentsPerEntryMax} files attached.`;
export const attachmentNotFoundMessage = 'This attachment does not exist or is not in a design history you can see.';

/** A file name as people give it: printable, no path separators. */
export const attachmentNameSchema = text()
  .trim()
  .min(1, attachmentNameMessage)
  .max(attachmentNameMaxLength, attachmentNameMessage)
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  .regex(/^[^/\\\u0000-\u001f\u007f]+$/, attachmentNameMessage)
  .refine((name) => name !== '.' && name !== '..', attachmentNameMessage);

/** `POST …/entries/:entryId/attachments?name=`: the file's name; its content type is the request's Content-Type. */
export const attachmentUploadQuerySchema = z.object({ name: attachmentNameSchema });

export const designHistoryAttachmentSchema = z.object({
  id: z.uuid(),
  fileName: text(),
  contentType: text(),
  bytes: z.number().int(),
  /** SHA-256 (hex) of the file's bytes: the key it is stored under and what a signature of the entry binds. */
  sha256: text(),
  /** UTC, ISO 8601. */
  uploadedAt: text(),
  /** The download's address (whoever may read the entry). */
  download: text(),
});
export type DesignHistoryAttachment = z.infer<typeof designHistoryAttachmentSchema>;

export const designHistoryAttachmentParamsSchema = z.object({
  deviceId: z.uuid(),
  entryId: z.uuid(),
  attachmentId: z.uuid(),
});

/**
 * `POST …/entries/:entryId/attachments/uploaded`: attaches a finished resumable upload (the caller's own, purpose
 * `design_history_attachment`); its name and type are the upload's `filename` and `filetype`. With `sha256`, the
 * server refuses the file unless the bytes it holds give that hash.
 */
export const attachUploadSchema = z.object({
  uploadId: z.uuid(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'The SHA-256 must be 64 lower-case hexadecimal digits.')
    .optional(),
});
export type AttachUpload = z.infer<typeof attachUploadSchema>;

export const attachmentUploadPurposeMessage = 'This upload was not made for a design history entry.';
export const attachmentUploadUnfinishedMessage =
  'This upload is not complete yet: send the rest of the file, then attach it.';
export const attachmentHashMismatchMessage =
  'The file the server received does not have the SHA-256 you sent. Please upload the file again.';
