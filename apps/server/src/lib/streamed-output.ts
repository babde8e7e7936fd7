import { PassThrough, Writable } from 'node:stream';

/**
 * What `write` writes into a web `WritableStream` (a ZIP writer's output), as chunks its consumer pulls (storage, a
 * response) while it is being written: the writer waits whenever the consumer has not taken what it wrote, so the
 * bytes in between stay within a stream buffer whatever the size of the whole. A failed writer fails the iteration
 * with its error; a consumer that stops (or fails) makes the writer's next write fail.
 */
export async function* streamedOutput(
  write: (output: WritableStream<Uint8Array>) => Promise<unknown>,
): AsyncGenerator<Uint8Array, void, undefined> {
  const pipe = new PassThrough();
  const written = write(Writable.toWeb(pipe) as WritableStream<Uint8Array>).then(
    () => {
      if (!pipe.writableEnded) pipe.end();
    },
    (error: unknown) => {
      pipe.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  try {
    for await (const chunk of pipe as AsyncIterable<Uint8Array>) yield chunk;
  } finally {
    if (!pipe.destroyed) pipe.destroy();
    await written;
  }
}

/** A stream's chunks gathered into one buffer: for files known to be small (a design history file answered at once). */
export async function gathered(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}
