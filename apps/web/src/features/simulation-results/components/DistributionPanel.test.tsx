import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ResultManifest } from '../resultData';
import { createBinningClient, createBinningHandler, type BinningPort } from '../worker/binningProtocol';
import { DistributionPanel } from './DistributionPanel';

const drawn = vi.hoisted(() => ({ option: null as null | { xAxis: { name: string } } }));
vi.mock('../../analysis/components/charts/EChart', () => ({
  default: (props: { option: { xAxis: { name: string } } }) => {
    drawn.option = props.option;
    return <div data-testid="echart" />;
  },
}));

/** Three timesteps of 2 blood particles; pressure at timestep t is (t, t + 1). */
const manifest: ResultManifest = {
  format: 'insilico-sph-columnar',
  version: 1,
  endianness: 'little',
  timesteps: [0, 1, 2].map((index) => ({ index, time: index / 1000 })),
  objects: [
    {
      name: 'blood',
      kind: 'fluid',
      particleCount: 2,
      frameFile: 'blood/{step}.bin',
      columns: [
        { name: 'particle_id', label: '', unit: '', type: 'int32', components: 1, offset: 0, byteLength: 8 },
        { name: 'position', label: '', unit: 'mm', type: 'float32', components: 3, offset: 8, byteLength: 24 },
        { name: 'pressure', label: '', unit: 'Pa', type: 'float32', components: 1, offset: 32, byteLength: 8 },
      ],
    },
  ],
};

/** The binning worker in this thread (replies asynchronously, as a real one does). */
function inThreadWorker() {
  const handle = createBinningHandler();
  const port: BinningPort = {
    onmessage: null,
    postMessage(message) {
      const reply = handle(message);
      queueMicrotask(() => port.onmessage?.({ data: reply }));
    },
    terminate() {},
  };
  return createBinningClient(port);
}

afterEach(() => vi.unstubAllGlobals());

describe('DistributionPanel', () => {
  it('bins a histogram in the worker from the one pressure column it needs, a Range heatmap on the server', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        if (url.startsWith('/s/heatmap'))
          return Response.json({
            data: [
              [1, 0],
              [0, 1],
              [1, 1],
            ],
            min: 0,
            max: 3,
            binSize: 1.5,
            timerange: { start: 0, end: 2 },
          });
        const t = Number(/frames\/blood\/(\d+)/.exec(url)![1]);
        return new Response(Float32Array.from([t, t + 1]).buffer);
      }),
    );
    render(
      <DistributionPanel
        manifest={manifest}
        frameUrlTemplate="/s/frames/{object}/{timestep}"
        heatmapUrl="/s/heatmap"
        startWorker={inThreadWorker}
      />,
    );
    // The body type starts at the result's first object (Fluid); choosing an output draws timestep 1 at once.
    expect(screen.getByRole('combobox', { name: 'Body type' }).textContent).toBe('Fluid');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Output' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pressure' }));
    await screen.findByTestId('echart');
    await waitFor(() => expect(drawn.option?.xAxis.name).toBe('Pressure (Pa)'));
    expect(asked).toEqual(['/s/frames/blood/0?columns=pressure']);

    // Range: binned by the server next to the stored frames (only counts travel); the heatmap's x axis is the timestep.
    fireEvent.click(screen.getByRole('button', { name: 'Range' }));
    await waitFor(() => expect(drawn.option?.xAxis.name).toBe('Timestep'));
    expect(asked.slice(1)).toHaveLength(1);
    const heatmap = new URL(asked[1]!, 'http://x');
    expect(heatmap.pathname).toBe('/s/heatmap');
    expect(Object.fromEntries(heatmap.searchParams)).toMatchObject({
      objects: 'blood',
      output: 'pressure',
      start: '0',
    });
  });

  it('says why when a timestep cannot be fetched', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: { code: 'not_found', message: 'This simulation has no such output (yet).' } }),
            {
              status: 404,
            },
          ),
      ),
    );
    render(
      <DistributionPanel
        manifest={manifest}
        frameUrlTemplate="/s/frames/{object}/{timestep}"
        heatmapUrl="/s/heatmap"
        startWorker={inThreadWorker}
      />,
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Output' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Pressure' }));
    expect(
      await screen.findByText('The distribution could not be computed. This simulation has no such output (yet).'),
    ).toBeTruthy();
  });
});
