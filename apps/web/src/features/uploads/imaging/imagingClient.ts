import type { DeidentificationManifest, DeidentifySelection } from './deidentifyZip';
import type { ImagingPort, ImagingReply, ImagingRequest } from './imagingProtocol';
import type { ScanResult, SeriesPreview } from './scan';

export interface Progress {
  phase: 'scan' | 'deidentify';
  done: number;
  total: number;
  bytes?: number;
}

/** A request as the page writes it; the client adds the id. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

type Pending = { resolve(reply: ImagingReply): void; reject(error: Error): void };

/** Starts the imaging module worker (Vite bundles it as its own chunk with @insilico/dicom and zip.js). */
export function startImagingWorker(): ImagingPort {
  return new Worker(new URL('./imaging.worker.ts', import.meta.url), {
    type: 'module',
    name: 'imaging',
  });
}

/** Promises over the worker's messages, one request at a time per id; progress goes to the listener. */
export class ImagingClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly port: ImagingPort,
    private readonly onProgress: (progress: Progress) => void,
  ) {
    port.onmessage = (event: MessageEvent) => {
      const reply = event.data as ImagingReply;
      if (reply.type === 'progress') {
        this.onProgress({ phase: reply.phase, done: reply.done, total: reply.total, bytes: reply.bytes });
        return;
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.type === 'error') pending.reject(new Error(reply.message));
      else pending.resolve(reply);
    };
  }

  private send(request: WithoutId<ImagingRequest>): Promise<ImagingReply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ ...request, id });
    });
  }

  async scan(source: Extract<ImagingRequest, { type: 'scan' }>['source']): Promise<ScanResult> {
    const reply = await this.send({ type: 'scan', source });
    if (reply.type !== 'scanned') throw new Error('Unexpected answer from the imaging worker.');
    return reply.result;
  }

  async result(modifiedDates: boolean): Promise<ScanResult> {
    const reply = await this.send({ type: 'result', modifiedDates });
    if (reply.type !== 'scanned') throw new Error('Unexpected answer from the imaging worker.');
    return reply.result;
  }

  async deidentify(selection: DeidentifySelection): Promise<{ zip: Blob; manifest: DeidentificationManifest }> {
    const reply = await this.send({ type: 'deidentify', selection });
    if (reply.type !== 'deidentified') throw new Error('Unexpected answer from the imaging worker.');
    return { zip: reply.zip, manifest: reply.manifest };
  }

  /** A series' first image, larger, to draw the regions to mask on (null: it cannot be shown). */
  async preview(seriesId: string): Promise<SeriesPreview | null> {
    const reply = await this.send({ type: 'preview', seriesId });
    if (reply.type !== 'preview') throw new Error('Unexpected answer from the imaging worker.');
    return reply.preview;
  }

  dispose(): void {
    for (const pending of this.pending.values()) pending.reject(new Error('The imaging worker was stopped.'));
    this.pending.clear();
    this.port.terminate?.();
  }
}
