import { createBinningHandler, type BinningRequest } from './binningProtocol';

/** The results page's binning Web Worker: the columns stay here; only bin counts go back (see binningProtocol.ts). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<BinningRequest>) => void) | null;
  postMessage(message: unknown): void;
};

const handle = createBinningHandler();
scope.onmessage = (event) => scope.postMessage(handle(event.data));
