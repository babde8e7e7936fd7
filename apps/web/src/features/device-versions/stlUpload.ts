import { Upload } from 'tus-js-client';
import { notStlMessage, stlFileNamePattern, uploadMaxBytes, uploadTooLargeMessage } from '@insilico/contracts';
import { startResuming } from '../../lib/resumeUpload';
import { deviceVersionUrls } from './api';

/** What the caller hears from one file's upload. */
export interface StlUploadHandlers {
  onProgress(sent: number, total: number): void;
  /** All bytes arrived; `uploadId` goes into the version's `uploadIds`. */
  onDone(uploadId: string): void;
  /** The upload gave up after its retries (the form shows "Upload failed" with Try again). */
  onFailed(reason: string): void;
}

export interface StlUploadControl {
  /** Stops sending; the bytes so far stay on the server and `resume` continues from there. */
  pause(): void;
  resume(): void;
  /** Stops and removes the upload from the server. */
  cancel(): void;
}

/** Why a chosen file cannot be uploaded at all, or null (checked before any byte is sent). */
export function stlFileProblem(file: { name: string; size: number }): string | null {
  if (!stlFileNamePattern.test(file.name)) return notStlMessage;
  if (file.size > uploadMaxBytes) return uploadTooLargeMessage;
  return null;
}

/** Pieces of at most 8 MiB: a dropped connection costs little, and progress moves often. */
const chunkSize = 8 * 1024 * 1024;

/**
 * Uploads one .stl file with tus (resumable: a broken connection is retried from the server's offset, and an
 * upload interrupted by a reload resumes from the fingerprint tus-js-client keeps in localStorage).
 */
export function startStlUpload(deviceId: string, file: File, handlers: StlUploadHandlers): StlUploadControl {
  const upload = new Upload(file, {
    endpoint: deviceVersionUrls.uploads(deviceId),
    chunkSize,
    retryDelays: [0, 1000, 3000, 5000],
    metadata: { filename: file.name, filetype: file.type || 'model/stl', purpose: 'device_version_model' },
    removeFingerprintOnSuccess: true,
    onProgress: (sent, total) => handlers.onProgress(sent, total),
    onSuccess: () => {
      const id = upload.url?.split('/').pop();
      if (id) handlers.onDone(id);
      else handlers.onFailed('The server did not name the upload.');
    },
    onError: (error) => handlers.onFailed(error.message),
  });
  // A file chosen again after a reload continues where its earlier upload stopped.
  startResuming(upload);
  return {
    pause: () => void upload.abort(false),
    // Asks the server for the offset (HEAD) and sends the rest.
    resume: () => upload.start(),
    cancel: () => void upload.abort(true).catch(() => undefined),
  };
}
