import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Simulation } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { selectedItems } from './ParticlesPanel';
import { SimulationResultsPage } from './SimulationResultsPage';

const ids = { deviceId: 'd-1', projectId: 'p-1', simulationId: 's-1' };

function simulation(overrides: Partial<Simulation>): Simulation {
  return {
    id: 's-1',
    projectId: 'p-1',
    roomId: 'r-1',
    roomName: 'Valve in root',
    name: 'Fluid 1',
    kind: 'fluid',
    resolution: 'coarse',
    phase: 'End-systole',
    status: 'running',
    progress: 0.35,
    simulatedTime: 0.105,
    endTime: 0.3,
    etaSeconds: 125,
    error: null,
    deviceVersion: { id: 'v-1', name: 'Ring valve' },
    parameters: {},
    estimate: { resolution: 'coarse', dp_mm: 2, particles: 1000, endTime_s: 0.3, steps: 100, seconds: 100 },
    scenarioVersion: 'scenarios-1',
    createdBy: { id: 'u-1', name: 'Ada' },
    createdAt: '2026-11-25T04:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

/** The API: the simulation as given, its results 409 'no_results' (no timestep saved yet). */
function serve(answer: Simulation) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.endsWith('/results')
        ? jsonResponse(409, { error: { code: 'no_results', message: 'This simulation has no results yet.' } })
        : jsonResponse(200, answer),
    ),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('SimulationResultsPage', () => {
  it('shows a running simulation’s progress and that no timestep is saved yet', async () => {
    serve(simulation({}));
    renderWithProviders(<SimulationResultsPage {...ids} onScreenshot={null} />);
    expect(await screen.findByRole('heading', { name: 'Fluid 1', level: 1 })).toBeTruthy();
    expect(await screen.findByText(/Running: 35 % \(simulated 105 ms of 300 ms\), about 2 min left\./)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Simulation progress' }).getAttribute('aria-valuenow')).toBe('35');
    expect(
      await screen.findByText('No timestep is saved yet. The results appear here as soon as the first one is.'),
    ).toBeTruthy();
  });

  it('says why a run failed, and that a run without a saved timestep has nothing to analyse', async () => {
    serve(simulation({ status: 'failed', error: 'The simulation diverged at t = 1.20 ms: pressure is NaN.' }));
    renderWithProviders(<SimulationResultsPage {...ids} onScreenshot={null} />);
    expect(await screen.findByText(/The simulation failed\. The simulation diverged at t = 1\.20 ms/)).toBeTruthy();
    expect(await screen.findByText('This simulation saved no timestep, so it has no results to analyse.')).toBeTruthy();
  });

  it('offers a retry when the simulation cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(404, {
          error: { code: 'simulation_not_found', message: 'This simulation does not exist in this project.' },
        }),
      ),
    );
    renderWithProviders(<SimulationResultsPage {...ids} onScreenshot={null} />);
    expect(await screen.findByText(/This simulation does not exist in this project\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe('the line-graph card items', () => {
  it('follow the picked order, take names from the timeline, and leave out particles not answered yet', () => {
    const items = selectedItems(
      [
        { object: 'blood', particle: 7 },
        { object: 'blood', particle: 2 },
        { object: 'stent', particle: 1 },
      ],
      [
        {
          object: 'blood',
          times: [0, 1],
          outputs: [{ name: 'pressure', label: 'Pressure', unit: 'Pa' }],
          stats: {},
          particles: [
            { particle: 2, name: 'Particle 2', values: { pressure: [1, 2] } },
            { particle: 7, name: 'Leader', values: { pressure: [3, null] } },
          ],
        },
      ],
    );
    expect(items.map((i) => [i.index, i.name, i.objectName])).toEqual([
      [7, 'Leader', 'blood'],
      [2, 'Particle 2', 'blood'],
    ]);
    // A timestep the particle is not in is a gap (NaN), which the chart and the average leave out.
    expect(items[0]!.plotData).toEqual([{ output: 'pressure', data: [3, NaN] }]);
  });
});
