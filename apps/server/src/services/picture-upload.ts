import type { Readable } from 'node:stream';
import { pictureErrorCodes, pictureMaxBytes, pictureTooBigMessage } from '@insilico/contracts';
import { ServiceError } from './errors';

/** The refusal of an upload over the limit: 413 with the spec's message. */
export function uploadTooBig(): ServiceError {
  return new ServiceError(413, pictureErrorCodes.tooBig, pictureTooBigMessage);
}

/**
 * Reads an uploaded body into memory, but never more than `maxBytes`: a declared length over the
 * limit is refused before anything is read, and a body that grows past the limit while it streams
 * (chunked, or longer than declared) is refused at the chunk that crosses it. The rest of the body is
 * not destroyed (that would reset the connection): `finishReadingBody` reads and drops it before the 413
 * goes out, so the client, still sending, receives it.
 */
export function readUpload(
  body: Readable,
  declaredBytes: number | undefined,
  maxBytes: number = pictureMaxBytes,
): Promise<Buffer> {
  if (declaredBytes !== undefined && declaredBytes > maxBytes) return Promise.reject(uploadTooBig());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > maxBytes) {
        stop();
        chunks.length = 0;
        reject(uploadTooBig());
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, received));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}
