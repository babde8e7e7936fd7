import { directUploadSchema, tusVersion } from '@insilico/contracts';
import { Upload } from 'tus-js-client';
import { apiFetch } from '../../../lib/api';
import { ApiError } from '../../../lib/apiError';
import { imagingUrls } from '../api';
import { StorageRefusal, sendDirect, type DirectApi } from './directUpload';

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

const tusHeaders = { 'Tus-Resumable': tusVersion };
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

/** tus creation of the upload (purpose imaging_dataset); answers its path. */
async function createUpload(deviceId: string, bytes: number, signal: AbortSignal): Promise<string> {
  const metadata = { filename: anonymizedZipName, filetype: 'application/zip', purpose: 'imaging_dataset' };
  const response = await fetch(imagingUrls.uploads(deviceId), {
    method: 'POST',
    credentials: 'same-origin',
    signal,
    headers: {
      ...tusHeaders,
      'Upload-Length': String(bytes),
      'Upload-Metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${base64(value)}`)
        .join(','),
    },
  });
  const location = response.headers.get('Location');
  if (response.status !== 201 || !location) throw await refusalOf(response);
  return uploadPath(location);
}

async function refusalOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new ApiError(
    response.status,
    body?.error?.code ?? 'http',
    body?.error?.message ?? `Status ${response.status}`,
  );
}

/** The server's side of a direct upload, and the PUT of a part to storage. */
export function directApi(path: string): DirectApi {
  return {
    parts: (signal) => apiFetch(`${path}/direct`, { method: 'POST', schema: directUploadSchema, signal }),
    report: (partNumber, etag, bytes, signal) =>
      apiFetch(`${path}/direct/parts/${partNumber}`, { method: 'PUT', body: { etag, bytes }, signal }),
    complete: (signal) => apiFetch(`${path}/direct/complete`, { method: 'POST', signal }),
    put: async (url, body, signal) => {
      let response: Response;
      try {
        // Straight to the bucket: no cookie, no header the signature did not cover.
        response = await fetch(url, { method: 'PUT', body, signal, credentials: 'omit' });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new StorageRefusal(0);
      }
      if (!response.ok) throw new StorageRefusal(response.status);
      // The bucket's CORS rule must expose ETag (docs/decisions/object-storage.md).
      const etag = response.headers.get('ETag');
      if (!etag) throw new Error('The storage did not show the part’s ETag (its CORS rule must expose ETag).');
      return etag;
    },
  };
}

/**
 * Uploads the de-identified zip to the workspace's uploads (its data region), purpose imaging_dataset. The upload
 * is made by tus creation; with object storage it then goes straight to the region's bucket in presigned parts
 * (`sendDirect`), otherwise by tus PATCH through the server: pieces of 8 MiB, a dropped connection retried from the
 * server's offset, Try again continuing from there. With `resumePath` (an upload started before the tab was closed)
 * it continues that upload; one the server no longer has (expired) starts again from the first byte.
 */
export function startImagingUpload(
  deviceId: string,
  zip: Blob,
  handlers: ImagingUploadHandlers,
  resumePath: string | null = null,
): ImagingUploadControl {
  let path = resumePath;
  let tus: Upload | null = null;
  let aborter = new AbortController();

  const startTus = (uploadUrl: string) => {
    const upload = new Upload(zip, {
      endpoint: imagingUrls.uploads(deviceId),
      uploadUrl,
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
    tus = upload;
    upload.start();
  };

  const run = async (signal: AbortSignal) => {
    if (tus) return tus.start();
    try {
      path ??= await createUpload(deviceId, zip.size, signal);
      handlers.onUploadPath?.(path);
      try {
        await sendDirect(directApi(path), zip, signal, handlers.onProgress);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // The filesystem store (or an upload begun with tus): the bytes go through the server.
        if (error.code === 'direct_unavailable' || error.code === 'tus_upload') return startTus(path);
        // Gone (expired, or ended): a new upload from the first byte.
        if (error.status !== 404 && error.status !== 410) throw error;
        path = null;
        return await run(signal);
      }
      handlers.onDone(path.split('/').pop()!);
    } catch (error) {
      if (signal.aborted) return;
      handlers.onFailed((error as Error).message);
    }
  };
  void run(aborter.signal);
  return {
    resume: () => {
      aborter = new AbortController();
      void run(aborter.signal);
    },
    pause: () => {
      aborter.abort();
      void tus?.abort(false);
    },
    cancel: () => {
      aborter.abort();
      if (tus) void tus.abort(true).catch(() => undefined);
      else if (path)
        void fetch(path, { method: 'DELETE', headers: tusHeaders, credentials: 'same-origin' }).catch(() => undefined);
    },
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
