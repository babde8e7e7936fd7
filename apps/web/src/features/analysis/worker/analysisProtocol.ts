import {
  InsufficientPatientsError,
  runAnalysisJob,
  StatsInputError,
  type AnalysisJob,
  type AnalysisOutcome,
} from '@insilico/stats';

/**
 * The messages between the analysis page and its Web Worker (docs/decisions/stats-where-analysis-runs.md): the page
 * sends the whole cohort matrix, the analysed parameters, the excluded rows and the settings, tagged with a
 * sequence number; the worker answers with the same number, and the page keeps only the answer to its latest
 * request (exclusions can arrive faster than results). The job itself (`runAnalysisJob`) is the one the server runs
 * for the analysis report.
 */

export type { AnalysisJob, AnalysisOutcome, FitCoverage } from '@insilico/stats';

export type AnalysisFailureCode = 'insufficient_patients' | 'invalid_input' | 'failed';

export interface WorkerRequest {
  seq: number;
  job: AnalysisJob;
}

export type WorkerReply =
  | { seq: number; ok: true; outcome: AnalysisOutcome }
  | { seq: number; ok: false; code: AnalysisFailureCode; message: string };

/** Runs one job (in the worker; tests call it directly). Never throws: failures become replies. */
export function handleRequest(request: WorkerRequest): WorkerReply {
  try {
    return { seq: request.seq, ok: true, outcome: runAnalysisJob(request.job) };
  } catch (error) {
    if (error instanceof InsufficientPatientsError)
      // The engine's message is the spec's ("Statistical analysis needs at least 20 patients.", tested).
      return { seq: request.seq, ok: false, code: 'insufficient_patients', message: error.message };
    if (error instanceof StatsInputError)
      return { seq: request.seq, ok: false, code: 'invalid_input', message: error.message };
    return {
      seq: request.seq,
      ok: false,
      code: 'failed',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The part of a Worker the client uses (a fake in tests). */
export interface WorkerPort {
  postMessage(message: WorkerRequest, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<WorkerReply>) => void) | null;
  /** The worker could not load or crashed (a failed chunk download, an error outside `handleRequest`). */
  onerror: ((event: Event) => void) | null;
  terminate(): void;
}

/**
 * The page's side: numbers each request, transfers a copy of the matrix (the page keeps its own), and tells the
 * listener about every answer with whether it is stale (a newer request was sent since).
 */
export class AnalysisWorkerClient {
  private latest = 0;

  constructor(
    private readonly port: WorkerPort,
    private readonly listener: (reply: WorkerReply, stale: boolean) => void,
  ) {
    port.onmessage = (event) => this.listener(event.data, event.data.seq !== this.latest);
    port.onerror = () =>
      this.listener({ seq: this.latest, ok: false, code: 'failed', message: 'The analysis worker stopped.' }, false);
  }

  /** Sends a job; answers its sequence number. */
  run(job: AnalysisJob): number {
    this.latest += 1;
    const data = job.matrix.data.slice();
    this.port.postMessage({ seq: this.latest, job: { ...job, matrix: { ...job.matrix, data } } }, [data.buffer]);
    return this.latest;
  }

  dispose(): void {
    this.port.onmessage = null;
    this.port.onerror = null;
    this.port.terminate();
  }
}
