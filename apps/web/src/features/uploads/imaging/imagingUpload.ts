import { Upload } from 'tus-js-client';
import { imagingUrls } from '../api';

export interface ImagingUploadHandlers {
  onProgress(sent: number, total: number): void;
  onDone(uploadId: string): void;
  /** The upload gave up after its retries (the page shows "Upload failed" with Try again). */
  onFailed(reason: string): void;
  /** The server made the upload: its path, kept to resume after the tab is closed. */
  onUploadPath?(path: string): void;
}

export interface ImagingUploadControl {
  /** Sends the rest after a failure or a pause, from the offset the server holds (tus HEAD). */
  resume(): void;
  pause(): void;
  cancel(): void;
}

/** The name the de-identified zip is uploaded under: nothing of the original dataset's name. */
export const anonymizedZipName = 'anonymized-imaging-dataset.zip';

/**
 * Uploads the de-identified zip with tus to the workspace's uploads (its data region), purpose imaging_dataset:
 * pieces of 8 MiB, a dropped connection retried from the server's offset, Try again continuing from there. With
 * `resumePath` (an upload started before the tab was closed) it asks the server for the offset and sends the rest;
 * an upload the server no longer has (expired) starts again from the first byte.
 */
export function startImagingUpload(
  deviceId: string,
  zip: Blob,
  handlers: ImagingUploadHandlers,
  resumePath: string | null = null,
): ImagingUploadControl {
  const upload = new Upload(zip, {
    endpoint: imagingUrls.uploads(deviceId),
    uploadUrl: resumePath,
    chunkSize: 8 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000],
    metadata: { filename: anonymizedZipName, filetype: 'application/zip', purpose: 'imaging_dataset' },
    // Each de-identification makes a new zip (a new secret): tus's own fingerprint store could never match one
    // again. The page keeps the zip and the upload's path itself (pendingUpload.ts) and passes the path back.
    storeFingerprintForResuming: false,
    onProgress: (sent, total) => handlers.onProgress(sent, total),
    onUploadUrlAvailable: () => {
      if (upload.url) handlers.onUploadPath?.(uploadPath(upload.url));
    },
    onSuccess: () => {
      const id = upload.url?.split('/').pop();
      if (id) handlers.onDone(id);
      else handlers.onFailed('The server did not name the upload.');
    },
    onError: (error) => handlers.onFailed(error.message),
  });
  upload.start();
  return {
    resume: () => upload.start(),
    pause: () => void upload.abort(false),
    cancel: () => void upload.abort(true).catch(() => undefined),
  };
}

/** The path of an upload's URL (tus answers with a path; the client may have made it absolute). */
export function uploadPath(url: string): string {
  return new URL(url, 'http://localhost').pathname;
}

/** Speed (bytes/s) and seconds left from the first and latest progress samples. */
export function transferRate(
  started: { at: number; sent: number },
  now: { at: number; sent: number },
  total: number,
): { bytesPerSecond: number; secondsLeft: number | null } {
  const seconds = (now.at - started.at) / 1000;
  const bytesPerSecond = seconds > 0 ? (now.sent - started.sent) / seconds : 0;
  return { bytesPerSecond, secondsLeft: bytesPerSecond > 0 ? Math.ceil((total - now.sent) / bytesPerSecond) : null };
}
