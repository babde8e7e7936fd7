import { createImagingHandler } from './imagingHandler';
import type { ImagingRequest } from './imagingProtocol';
import type { WorkerLike } from './deidentifyPool';

/** The imaging Web Worker: reads, de-identifies and zips the dataset off the page's thread (imagingHandler.ts). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ImagingRequest>) => void) | null;
  postMessage(message: unknown): void;
};

// De-identification runs in parallel in workers of its own, started from here (Vite bundles them as their own chunk).
const startDeidentifyWorker = (): WorkerLike =>
  new Worker(new URL('./deidentify.worker.ts', import.meta.url), { type: 'module', name: 'deidentify' });

const handle = createImagingHandler((message) => scope.postMessage(message), { start: startDeidentifyWorker });
scope.onmessage = (event) => {
  void handle(event.data);
};
