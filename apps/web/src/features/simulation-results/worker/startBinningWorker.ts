import { createBinningClient, type BinningPort } from './binningProtocol';

/** Starts the binning module worker (Vite bundles it as its own chunk) and returns its client. */
export function startBinningWorker() {
  const worker = new Worker(new URL('./binning.worker.ts', import.meta.url), {
    type: 'module',
    name: 'result-binning',
  });
  return createBinningClient(worker as unknown as BinningPort);
}
