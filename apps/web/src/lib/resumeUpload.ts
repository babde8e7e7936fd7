import type { Upload } from 'tus-js-client';

/**
 * Starts a tus upload, continuing where an earlier upload of the same file stopped (the fingerprint tus-js-client
 * keeps in localStorage, e.g. before a reload), if one did.
 */
export function startResuming(upload: Upload): void {
  void upload.findPreviousUploads().then(
    (previous) => {
      const last = previous[0];
      if (last) upload.resumeFromPreviousUpload(last);
      upload.start();
    },
    () => upload.start(),
  );
}
