import { Upload } from 'tus-js-client';
import { startResuming } from '../../lib/resumeUpload';
import { deviceVersionUrls } from '../device-versions';

/** Pieces of 8 MiB (as a device version's files): a dropped connection costs little, and progress moves often. */
const chunkSize = 8 * 1024 * 1024;

/**
 * Sends a file above the one-request limit as a resumable upload (tus, purpose `design_history_attachment`): a
 * dropped connection is retried from the offset the server holds, and the same file chosen again after a reload
 * continues where its earlier upload stopped (tus-js-client's fingerprint in localStorage). Answers the upload's id,
 * which `attachUploaded` then attaches to the entry.
 */
export function sendResumable(
  deviceId: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: deviceVersionUrls.uploads(deviceId),
      chunkSize,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: {
        filename: file.name,
        filetype: file.type || 'application/octet-stream',
        purpose: 'design_history_attachment',
      },
      removeFingerprintOnSuccess: true,
      onProgress,
      onSuccess: () => {
        const id = upload.url?.split('/').pop();
        if (id) resolve(id);
        else reject(new Error('The server did not name the upload.'));
      },
      onError: reject,
    });
    startResuming(upload);
  });
}
