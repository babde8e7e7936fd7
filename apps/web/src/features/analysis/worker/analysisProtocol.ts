// Types only from contracts: a value import would bundle zod and every schema into the worker.
import type { AnalysisSettings } from '@insilico/contracts';
import {
  analysePopulation,
  column,
  deviceCoverage,
  InsufficientPatientsError,
  proposeSizeSet,
  StatsInputError,
  withoutRows,
  type DeviceCoverage,
  type PopulationAnalysis,
  type PopulationMatrix,
  type SizeSetProposal,
} from '@insilico/stats';

/**
 * The messages between the analysis page and its Web Worker (docs/decisions/stats-where-analysis-runs.md): the page
 * sends the whole cohort matrix, the analysed parameters, the excluded rows and the settings, tagged with a
 * sequence number; the worker answers with the same number, and the page keeps only the answer to its latest
 * request (exclusions can arrive faster than results).
 */

/** One analysis to run. Keys name parameters; the worker resolves them to columns. */
export interface AnalysisJob {
  /** Every patient × every parameter of the cohort table, column-major. */
  matrix: PopulationMatrix;
  /** The parameter key of each matrix column. */
  keys: readonly string[];
  /** The analysed parameters, in the order the page shows them. */
  parameters: readonly string[];
  /** Matrix rows (patients) left out. */
  excludedRows: readonly number[];
  settings: AnalysisSettings;
}

/** Coverage of one device version's sizes. */
export interface FitCoverage {
  label: string;
  versionId: string | null;
  /** Null when the version has no sizes yet. */
  coverage: DeviceCoverage | null;
}

/** What the page shows, in terms of the analysed rows (map back to patients with `rows`). */
export interface AnalysisOutcome {
  /** The analysed parameters, in the order of `analysis.parameters` (the job's, which may lag behind the page). */
  parameters: string[];
  /** Matrix row of each analysed patient (its index in the cohort table). */
  rows: number[];
  analysis: PopulationAnalysis;
  fits: FitCoverage[];
  sizeSet: SizeSetProposal | null;
}

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
    return { seq: request.seq, ok: true, outcome: runJob(request.job) };
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

function indexOf(keys: readonly string[], key: string): number {
  const index = keys.indexOf(key);
  if (index < 0) throw new StatsInputError(`The cohort has no parameter ${key}.`);
  return index;
}

function runJob(job: AnalysisJob): AnalysisOutcome {
  const excluded = new Set(job.excludedRows);
  const included = withoutRows(job.matrix, excluded);
  const rows: number[] = [];
  for (let i = 0; i < job.matrix.rows; i++) if (!excluded.has(i)) rows.push(i);

  // The analysed parameters as their own matrix: its columns are copies of the included matrix's.
  const selected = job.parameters.map((key) => indexOf(job.keys, key));
  const data = new Float64Array(included.rows * selected.length);
  selected.forEach((j, k) => data.set(column(included, j), k * included.rows));
  const analysed: PopulationMatrix = { rows: included.rows, cols: selected.length, data };

  const { settings } = job;
  const sizingIndex = settings.sizingParameter === null ? -1 : job.parameters.indexOf(settings.sizingParameter);
  const analysis = analysePopulation(analysed, {
    percentiles: settings.percentiles,
    correlationThreshold: settings.correlationThreshold,
    alpha: settings.alpha,
    bandwidth: settings.bandwidth,
    ...(sizingIndex >= 0
      ? {
          sizing: {
            parameter: sizingIndex,
            seedPercentile: settings.seedPercentile,
            targetCoveragePercent: settings.targetCoveragePercent,
          },
        }
      : {}),
  });

  // Sizes may use any parameter of the cohort, so coverage is computed on the included full matrix.
  const fits = settings.deviceFits.map((fit) => ({
    label: fit.label,
    versionId: fit.versionId,
    coverage:
      fit.sizes.length === 0
        ? null
        : deviceCoverage(
            included,
            fit.sizes.map((size) => ({
              name: size.name,
              ranges: size.ranges.map((range) => ({
                parameter: indexOf(job.keys, range.parameter),
                min: range.min,
                max: range.max,
              })),
            })),
          ),
  }));
  const sizeSet =
    sizingIndex >= 0 && settings.sizeSetWidth !== null
      ? proposeSizeSet(column(analysed, sizingIndex), settings.sizeSetWidth, {
          targetCoveragePercent: settings.targetCoveragePercent,
        })
      : null;
  return { parameters: [...job.parameters], rows, analysis, fits, sizeSet };
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
