import type { WorkerPort } from './analysisProtocol';

/** Starts the analysis module worker (Vite bundles it as its own chunk with @insilico/stats). */
export function startAnalysisWorker(): WorkerPort {
  return new Worker(new URL('./analysis.worker.ts', import.meta.url), {
    type: 'module',
    name: 'population-analysis',
  }) as unknown as WorkerPort;
}
