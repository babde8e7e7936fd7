import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Simulation } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { RoomAnalysesPage } from './RoomAnalysesPage';

const running: Simulation = {
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
};

/** The API: the simulation, no results yet, and the room's scene and gallery as `room` answers them. */
function serve(room: () => Promise<Response>) {
  return stubApi((url) => {
    if (url.pathname.includes('/rooms/r-1/')) return room();
    if (url.pathname.endsWith('/results'))
      return jsonResponse(409, { error: { code: 'no_results', message: 'This simulation has no results yet.' } });
    if (url.pathname.endsWith('/simulations/s-1')) return jsonResponse(200, running);
    return jsonResponse(200, {});
  });
}

function renderPage() {
  renderWithProviders(
    <MemoryRouter initialEntries={['/projects/room/analyses?project=p-1&room=r-1&simulation=s-1&device=d-1']}>
      <RoomAnalysesPage />
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('RoomAnalysesPage', () => {
  it('shows the results without waiting for the room, which is asked for at the same time', async () => {
    const fetch = serve(() => new Promise<Response>(() => undefined));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Fluid 1', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the room' }).getAttribute('href')).toBe(
      '/projects/room?project=p-1&room=r-1&device=d-1',
    );
    const asked = fetch.mock.calls.map(([url]) => String(url));
    expect(asked.some((url) => url.endsWith('/rooms/r-1/scene'))).toBe(true);
  });

  it('says when the room cannot be loaded, with the results still shown', async () => {
    serve(async () => jsonResponse(500, { error: { code: 'internal', message: 'Something went wrong.' } }));
    renderPage();
    expect(await screen.findByText(/The room could not be loaded\./)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Fluid 1', level: 1 })).toBeTruthy();
  });
});
