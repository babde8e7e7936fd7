import { Pseudonymiser, bytesSource, type MaskRegion } from '@insilico/dicom';
import { deidentifyFile, type DeidentifiedFile } from './deidentifyFile';

/**
 * De-identification of many files at once: each file's read bytes go to one of a few Web Workers, which parse,
 * de-identify, write and deflate it (`deidentifyFile`, the same function the single-threaded path calls) and send
 * the compressed entry back; the caller appends the entries in the files' order. Every worker gets the upload's
 * secret, so a UID or patient gets the same replacement whichever worker meets it.
 */

/** The part of a Worker the pool uses (a Worker, or a test's stand-in). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  terminate(): void;
}

export type DeidentifyWorkerRequest =
  | { type: 'secret'; secret: Uint8Array }
  | { type: 'file'; id: number; bytes: Uint8Array; modifiedDates: boolean; regions: MaskRegion[] };

export type DeidentifyWorkerReply = { id: number; result: DeidentifiedFile } | { id: number; error: string };

/** How many workers: the machine's cores, at most four (deflate scales with them; memory grows with each). */
export function deidentifyWorkerCount(): number {
  const cores = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency || 1;
  return Math.max(1, Math.min(4, cores));
}

interface Task {
  id: number;
  bytes: Uint8Array;
  modifiedDates: boolean;
  regions: MaskRegion[];
  resolve(result: DeidentifiedFile): void;
  reject(error: Error): void;
}

export class DeidentifyPool {
  private readonly workers: WorkerLike[] = [];
  private readonly idle: WorkerLike[] = [];
  private readonly queue: Task[] = [];
  private readonly running = new Map<number, Task>();
  private nextId = 1;
  private failure: Error | undefined;

  constructor(start: () => WorkerLike, size: number, secret: Uint8Array) {
    for (let i = 0; i < size; i += 1) {
      const worker = start();
      worker.onmessage = (event: MessageEvent<DeidentifyWorkerReply>) => this.settle(worker, event.data);
      worker.onerror = (event) => this.fail(new Error(event.message || 'A de-identification worker failed.'));
      worker.postMessage({ type: 'secret', secret } satisfies DeidentifyWorkerRequest);
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** De-identifies one file's bytes (handed over to the worker: the caller must not use them afterwards). */
  run(bytes: Uint8Array, modifiedDates: boolean, regions: readonly MaskRegion[]): Promise<DeidentifiedFile> {
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      this.queue.push({ id: this.nextId++, bytes, modifiedDates, regions: [...regions], resolve, reject });
      this.dispatch();
    });
  }

  close(): void {
    for (const worker of this.workers) worker.terminate();
    this.fail(new Error('The de-identification was stopped.'));
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const task = this.queue.shift()!;
      this.running.set(task.id, task);
      // Only a buffer of the file's own can move to the worker; a view into a larger one is copied first.
      const own = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength;
      const bytes = own ? task.bytes : task.bytes.slice();
      const request: DeidentifyWorkerRequest = {
        type: 'file',
        id: task.id,
        bytes,
        modifiedDates: task.modifiedDates,
        regions: task.regions,
      };
      worker.postMessage(request, [bytes.buffer as ArrayBuffer]);
    }
  }

  private settle(worker: WorkerLike, reply: DeidentifyWorkerReply): void {
    const task = this.running.get(reply.id);
    this.running.delete(reply.id);
    this.idle.push(worker);
    if (task) {
      if ('error' in reply) task.reject(new Error(reply.error));
      else task.resolve(reply.result);
    }
    this.dispatch();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const task of [...this.running.values(), ...this.queue]) task.reject(this.failure);
    this.running.clear();
    this.queue.length = 0;
  }
}

/** The worker's side: answers each file with its compressed entry (buffers moved, not copied) or its error. */
export function serveDeidentification(scope: {
  onmessage: ((event: MessageEvent<DeidentifyWorkerRequest>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
}): void {
  let pseudonymiser: Pseudonymiser | undefined;
  scope.onmessage = (event) => {
    const request = event.data;
    if (request.type === 'secret') {
      pseudonymiser = new Pseudonymiser(request.secret);
      return;
    }
    const answer = async (): Promise<void> => {
      try {
        if (!pseudonymiser) throw new Error('The de-identification worker has no secret.');
        const result = await deidentifyFile(
          bytesSource(request.bytes),
          pseudonymiser,
          request.modifiedDates,
          request.regions,
        );
        const buffers = new Set(result.entry.chunks.map((chunk) => chunk.buffer as ArrayBuffer));
        scope.postMessage({ id: request.id, result } satisfies DeidentifyWorkerReply, [...buffers]);
      } catch (error) {
        const message = error instanceof Error ? error.message : 'The file could not be de-identified.';
        scope.postMessage({ id: request.id, error: message } satisfies DeidentifyWorkerReply);
      }
    };
    void answer();
  };
}
