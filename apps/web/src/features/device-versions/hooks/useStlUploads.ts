import { useCallback, useEffect, useRef, useState } from 'react';
import { startStlUpload, stlFileProblem, type StlUploadControl } from '../stlUpload';

export type StlUploadStatus = 'uploading' | 'paused' | 'done' | 'failed' | 'refused';

/** One chosen file and how its upload stands. */
export interface StlUploadItem {
  key: string;
  file: File;
  status: StlUploadStatus;
  /** 0..1 */
  progress: number;
  /** Set once done. */
  uploadId: string | null;
  /** Why the file was refused before uploading (not .stl, too big), or why the upload failed. */
  problem: string | null;
}

let nextKey = 0;

/**
 * The files of the new-version form, each uploaded with tus as soon as it is chosen: progress, pause/resume,
 * Try again after a failure, remove (which also ends the upload on the server).
 */
export function useStlUploads(deviceId: string) {
  const [items, setItems] = useState<StlUploadItem[]>([]);
  const controls = useRef(new Map<string, StlUploadControl>());

  const update = useCallback((key: string, change: Partial<StlUploadItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const upload = useCallback(
    (key: string, file: File) => {
      controls.current.set(
        key,
        startStlUpload(deviceId, file, {
          onProgress: (sent, total) => update(key, { progress: total > 0 ? sent / total : 1 }),
          onDone: (uploadId) => update(key, { status: 'done', progress: 1, uploadId }),
          onFailed: () => update(key, { status: 'failed' }),
        }),
      );
    },
    [deviceId, update],
  );

  const add = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file): StlUploadItem => {
        const problem = stlFileProblem(file);
        nextKey += 1;
        return {
          key: `stl-${nextKey}`,
          file,
          status: problem ? 'refused' : 'uploading',
          progress: 0,
          uploadId: null,
          problem,
        };
      });
      setItems((current) => [...current, ...added]);
      for (const item of added) if (item.status === 'uploading') upload(item.key, item.file);
    },
    [upload],
  );

  const pause = useCallback(
    (key: string) => {
      controls.current.get(key)?.pause();
      update(key, { status: 'paused' });
    },
    [update],
  );

  const resume = useCallback(
    (key: string) => {
      controls.current.get(key)?.resume();
      update(key, { status: 'uploading' });
    },
    [update],
  );

  /** Try again after "Upload failed": tus continues from what the server already has. */
  const retry = resume;

  const remove = useCallback((key: string) => {
    controls.current.get(key)?.cancel();
    controls.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  // Leaving the form stops the transfers; the server's expiry removes what was not used.
  useEffect(() => {
    const all = controls.current;
    return () => {
      for (const control of all.values()) control.pause();
    };
  }, []);

  return { items, add, pause, resume, retry, remove };
}
