import type { DirectUpload } from '@insilico/contracts';

/**
 * Direct uploads into the workspace region's object storage (docs/decisions/object-storage.md): the server hands
 * presigned addresses for the parts storage does not hold yet; each part is PUT straight to storage (never through
 * the server), then reported with the ETag storage answered; when every part is reported the server completes the
 * upload. A part that fails is re-sent after a pause; addresses that ran out are asked for again; a resumed upload
 * (another page load) sends only the parts the server has not recorded.
 */
export interface DirectApi {
  /** The upload's part size, the parts recorded and addresses for others (`POST …/direct`). */
  parts(signal: AbortSignal): Promise<DirectUpload>;
  /** Reports a part storage took (`PUT …/direct/parts/:n`). */
  report(partNumber: number, etag: string, bytes: number, signal: AbortSignal): Promise<void>;
  /** Joins the parts (`POST …/direct/complete`). */
  complete(signal: AbortSignal): Promise<void>;
  /** PUTs one part to its presigned address; answers the ETag, or throws (`status` 403: the address ran out). */
  put(url: string, body: Blob, signal: AbortSignal): Promise<string>;
}

export class StorageRefusal extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'The storage could not be reached.' : `The storage refused a part (status ${status}).`);
    this.name = 'StorageRefusal';
  }
}

/** Parts sent at once (each 8 MiB: a few in flight keep a fast line busy without holding much memory). */
export const directConcurrency = 3;
/** Pauses before the re-sends of one failed part (then the upload fails and Try again resumes it). */
export const directRetryDelays = [1000, 3000, 5000];

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms === 0) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

/**
 * Sends the file's missing parts and completes the upload; `onProgress` hears the bytes storage holds (whole parts).
 * Rejects when a part still fails after its re-sends, or when aborted.
 */
export async function sendDirect(
  api: DirectApi,
  file: Blob,
  signal: AbortSignal,
  onProgress: (sent: number, total: number) => void,
  delays: readonly number[] = directRetryDelays,
): Promise<void> {
  for (let round = 0; ; round += 1) {
    const state = await api.parts(signal);
    const size = (partNumber: number) => Math.min(state.partSize, file.size - (partNumber - 1) * state.partSize);
    let sent = state.received.reduce((sum, partNumber) => sum + size(partNumber), 0);
    onProgress(sent, file.size);
    if (state.urls.length === 0) break;
    // Addresses that ran out (403) end this round: the next one asks for fresh ones (a few rounds at most).
    let expired = false;
    // Set when a part failed for good: the other workers stop taking parts.
    let failed = false;
    const queue = [...state.urls];
    const worker = async () => {
      for (let next = queue.shift(); next && !expired && !failed; next = queue.shift()) {
        const { partNumber, url } = next;
        const start = (partNumber - 1) * state.partSize;
        const body = file.slice(start, start + size(partNumber));
        for (let attempt = 0; ; attempt += 1) {
          try {
            const etag = await api.put(url, body, signal);
            await api.report(partNumber, etag, body.size, signal);
            break;
          } catch (error) {
            if (signal.aborted) throw error;
            if (error instanceof StorageRefusal && error.status === 403 && round < 3) {
              expired = true;
              return;
            }
            if (attempt >= delays.length || failed) {
              failed = true;
              throw error;
            }
            await wait(delays[attempt]!, signal);
          }
        }
        sent += body.size;
        onProgress(sent, file.size);
      }
    };
    await Promise.all(Array.from({ length: Math.min(directConcurrency, queue.length) }, worker));
  }
  await api.complete(signal);
}
