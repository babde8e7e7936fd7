import { describe, expect, it } from 'vitest';
import { layoutFromBinCount, histogram } from '@insilico/contracts/binning';
import {
  computePlot,
  createBinningClient,
  createBinningHandler,
  type BinningPort,
  type BinningReply,
  type BinningRequest,
} from './binningProtocol';

const columns = [Float32Array.from([0, 1, 2, 3]), Float32Array.from([1, 1, 4]), Float32Array.from([2, 8])];

describe('computePlot', () => {
  it('bins one timestep over its own range', () => {
    const plot = computePlot(columns, { mode: 'timestep', timestep: 1, bins: { binCount: 3 } });
    expect(plot).toMatchObject({ min: 1, max: 4, binSize: 1, timestep: 1 });
    expect([...(plot!.data as Uint32Array)]).toEqual([...histogram(columns[1]!, layoutFromBinCount(1, 4, 3))]);
  });

  it('bins a range, both ends included, and keeps it at least 1 step long', () => {
    const plot = computePlot(columns, { mode: 'range', start: 2, end: 2, bins: { binSize: 1 } });
    expect(plot).toMatchObject({ min: 1, max: 8, binSize: 1, timerange: { start: 1, end: 2 } });
    const widened = computePlot(columns, { mode: 'range', start: 0, end: 0, bins: { binCount: 2 } });
    expect(widened).toMatchObject({ timerange: { start: 0, end: 1 }, min: 0, max: 4 });
  });

  it('answers nothing without data', () => {
    expect(computePlot([], { mode: 'timestep', timestep: 0, bins: { binCount: 3 } })).toBeNull();
  });
});

/** A worker in the same thread: replies asynchronously, as a real one does. */
function fakePort(): BinningPort & { replies: BinningReply[] } {
  const handle = createBinningHandler();
  const port: BinningPort & { replies: BinningReply[] } = {
    replies: [],
    onmessage: null,
    postMessage(message: BinningRequest) {
      const reply = handle(message);
      port.replies.push(reply);
      queueMicrotask(() => port.onmessage?.({ data: reply }));
    },
    terminate() {},
  };
  return port;
}

describe('binning client', () => {
  it('loads the columns and answers plots, keeping only the latest request', async () => {
    const client = createBinningClient(fakePort());
    await client.load(columns.map((c) => c.slice()));
    const older = client.plot({ mode: 'timestep', timestep: 0, bins: { binCount: 2 } });
    const newer = client.plot({ mode: 'timestep', timestep: 2, bins: { binCount: 2 } });
    expect(await older).toBeNull();
    expect(await newer).toMatchObject({ timestep: 2, min: 2, max: 8 });
  });

  it('takes the columns timestep by timestep after a reset, and refuses a timestep outside the result', async () => {
    const port = fakePort();
    const client = createBinningClient(port);
    await client.reset(3);
    await client.put(1, Float32Array.from([1, 1, 4]));
    await client.put(2, Float32Array.from([2, 8]));
    expect(await client.plot({ mode: 'range', start: 1, end: 2, bins: { binSize: 1 } })).toMatchObject({
      min: 1,
      max: 8,
      timerange: { start: 1, end: 2 },
    });
    await expect(client.put(3, Float32Array.from([1]))).rejects.toThrow('No such timestep.');
    // A reset empties what was put: the histogram of a timestep not put again has nothing in it.
    await client.reset(3);
    const empty = await client.plot({ mode: 'timestep', timestep: 1, bins: { binCount: 2 } });
    expect([...(empty!.data as Uint32Array)].reduce((a, b) => a + b, 0)).toBe(0);
  });
});
