import { handleRequest, type WorkerRequest } from './analysisProtocol';

/** The analysis page's Web Worker: one job in, one reply out (see analysisProtocol.ts). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (event) => scope.postMessage(handleRequest(event.data));
