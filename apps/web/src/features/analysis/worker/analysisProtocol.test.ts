import { analysisMinPatientsMessage, analysisSettingsSchema, type AnalysisSettingsInput } from '@insilico/contracts';
import { analysePopulation, matrixFromColumns, mulberry32, withoutRows } from '@insilico/stats';
import { describe, expect, it, vi } from 'vitest';
import {
  AnalysisWorkerClient,
  handleRequest,
  type AnalysisJob,
  type WorkerPort,
  type WorkerReply,
  type WorkerRequest,
} from './analysisProtocol';

const keys = ['height_cm', 'aorticAnnulusPerimeter_mm', 'lvMass_g'];

/** 30 patients, three correlated parameters (seeded, so every run sees the same numbers). */
function cohortMatrix(rows = 30) {
  const random = mulberry32(7);
  const height = new Float64Array(rows);
  const perimeter = new Float64Array(rows);
  const mass = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    height[i] = 150 + 40 * random();
    perimeter[i] = 40 + 0.2 * (height[i] as number) + 5 * random();
    mass[i] = 80 + 100 * random();
  }
  return matrixFromColumns([height, perimeter, mass]);
}

function job(settings: AnalysisSettingsInput = {}, change: Partial<AnalysisJob> = {}): AnalysisJob {
  return {
    matrix: cohortMatrix(),
    keys,
    parameters: ['aorticAnnulusPerimeter_mm', 'height_cm'],
    excludedRows: [],
    settings: analysisSettingsSchema.parse(settings),
    ...change,
  };
}

describe('the worker side', () => {
  it('analyses the chosen parameters of the included patients, in the page’s order', () => {
    const reply = handleRequest({ seq: 4, job: job({}, { excludedRows: [0, 5] }) });
    if (!reply.ok) throw new Error(reply.message);
    expect(reply.seq).toBe(4);
    expect(reply.outcome.rows).toEqual([...Array(30).keys()].filter((i) => i !== 0 && i !== 5));
    const { analysis } = reply.outcome;
    expect(analysis.patients).toBe(28);
    // Same numbers as running the engine on the same columns by hand.
    const matrix = withoutRows(cohortMatrix(), new Set([0, 5]));
    const byHand = analysePopulation({
      rows: 28,
      cols: 2,
      data: Float64Array.from([...matrix.data.subarray(28, 56), ...matrix.data.subarray(0, 28)]),
    });
    expect(analysis.parameters.map((p) => p.summary.mean)).toEqual(byHand.parameters.map((p) => p.summary.mean));
    expect(Array.from(analysis.pearson.r)).toEqual(Array.from(byHand.pearson.r));
  });

  it('computes coverage per device version on any cohort parameter, and the sizing proposals', () => {
    const reply = handleRequest({
      seq: 1,
      job: job({
        sizingParameter: 'aorticAnnulusPerimeter_mm',
        sizeSetWidth: 4,
        targetCoveragePercent: 80,
        deviceFits: [
          {
            versionId: null,
            label: 'v1',
            sizes: [
              { name: 'S', ranges: [{ parameter: 'lvMass_g', min: 80, max: 130 }] },
              { name: 'L', ranges: [{ parameter: 'lvMass_g', min: 120, max: 180 }] },
            ],
          },
          { versionId: null, label: 'empty', sizes: [] },
        ],
      }),
    });
    if (!reply.ok) throw new Error(reply.message);
    const [fit, empty] = reply.outcome.fits;
    const mass = Array.from(cohortMatrix().data.subarray(60, 90));
    expect(fit?.coverage?.sizes.map((size) => size.count)).toEqual([
      mass.filter((v) => v >= 80 && v <= 130).length,
      mass.filter((v) => v >= 120 && v <= 180).length,
    ]);
    expect(fit?.coverage?.union.count).toBe(30);
    expect(empty?.coverage).toBeNull();
    expect(reply.outcome.analysis.sizing?.coverage.fraction).toBeGreaterThanOrEqual(0.8);
    expect(reply.outcome.sizeSet?.reached).toBe(true);
  });

  it('answers the spec’s minimum message below 20 patients', () => {
    const reply = handleRequest({ seq: 2, job: job({}, { excludedRows: [...Array(11).keys()] }) });
    expect(reply).toEqual({ seq: 2, ok: false, code: 'insufficient_patients', message: analysisMinPatientsMessage });
    expect(analysisMinPatientsMessage).toBe('Statistical analysis needs at least 20 patients.');
  });

  it('reports a parameter the cohort table lacks as invalid input, not a crash', () => {
    const reply = handleRequest({ seq: 3, job: job({}, { parameters: ['shoe_size'] }) });
    expect(reply).toMatchObject({ seq: 3, ok: false, code: 'invalid_input' });
  });
});

describe('the page side', () => {
  function fakePort() {
    const sent: { message: WorkerRequest; transfer: Transferable[] }[] = [];
    const port: WorkerPort = {
      postMessage: (message, transfer) => sent.push({ message, transfer }),
      onmessage: null,
      onerror: null,
      terminate: vi.fn(),
    };
    const answer = (reply: WorkerReply) => port.onmessage?.({ data: reply } as MessageEvent<WorkerReply>);
    return { port, sent, answer };
  }

  it('numbers requests and marks answers to older ones as stale', () => {
    const { port, sent, answer } = fakePort();
    const heard: [number, boolean][] = [];
    const client = new AnalysisWorkerClient(port, (reply, stale) => heard.push([reply.seq, stale]));
    expect(client.run(job())).toBe(1);
    expect(client.run(job({}, { excludedRows: [3] }))).toBe(2);
    expect(sent.map((entry) => entry.message.seq)).toEqual([1, 2]);
    answer(handleRequest(sent[0]!.message));
    answer(handleRequest(sent[1]!.message));
    expect(heard).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('transfers a copy of the matrix, so the page keeps its own', () => {
    const { port, sent } = fakePort();
    const client = new AnalysisWorkerClient(port, () => {});
    const request = job();
    client.run(request);
    const [entry] = sent;
    expect(entry?.transfer).toEqual([entry?.message.job.matrix.data.buffer]);
    expect(entry?.message.job.matrix.data).not.toBe(request.matrix.data);
    expect(Array.from(entry?.message.job.matrix.data ?? [])).toEqual(Array.from(request.matrix.data));
  });

  it('turns a worker that fails to load into a failure of the newest request', () => {
    const { port } = fakePort();
    const heard: [WorkerReply, boolean][] = [];
    const client = new AnalysisWorkerClient(port, (reply, stale) => heard.push([reply, stale]));
    client.run(job());
    port.onerror?.(new Event('error'));
    expect(heard).toEqual([[{ seq: 1, ok: false, code: 'failed', message: 'The analysis worker stopped.' }, false]]);
  });

  it('stops listening and ends the worker when disposed', () => {
    const { port } = fakePort();
    const listener = vi.fn();
    new AnalysisWorkerClient(port, listener).dispose();
    expect(port.onmessage).toBeNull();
    expect(port.onerror).toBeNull();
    expect(port.terminate).toHaveBeenCalled();
  });
});
