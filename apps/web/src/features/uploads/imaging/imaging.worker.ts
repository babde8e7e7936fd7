import { createImagingHandler } from './imagingHandler';
import type { ImagingRequest } from './imagingProtocol';

/** The imaging Web Worker: reads, de-identifies and zips the dataset off the page's thread (imagingHandler.ts). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ImagingRequest>) => void) | null;
  postMessage(message: unknown): void;
};

const handle = createImagingHandler((message) => scope.postMessage(message));
scope.onmessage = (event) => {
  void handle(event.data);
};
