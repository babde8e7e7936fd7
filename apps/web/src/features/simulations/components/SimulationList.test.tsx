import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { simulationNameTakenMessage, type Simulation, type SimulationPage } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { simulation } from '../../../../test/fixtures/simulation.fixtures';
import { SimulationList } from './SimulationList';

configure({ asyncUtilTimeout: 5000 });

const project = '/api/devices/d-1/projects/p-1';
const roomList = `${project}/rooms/r-1/simulations`;

function page(items: Simulation[], canRun = true): SimulationPage {
  return { items, total: items.length, page: 1, pageSize: 10, canRun };
}

const fetchMock = vi.fn<typeof fetch>();
const requests: { method: string; url: string; body: unknown }[] = [];
let listAnswer: (url: URL) => Response;
let patchAnswer: () => Response;

beforeEach(() => {
  requests.length = 0;
  listAnswer = () =>
    jsonResponse(
      200,
      page([
        simulation(),
        simulation({
          id: 's-2',
          name: 'Debris',
          kind: 'particle',
          status: 'running',
          progress: 0.25,
          simulatedTime: 0.2143,
          etaSeconds: 130,
          createdAt: '2026-11-21T23:30:00.000Z',
        }),
      ]),
    );
  patchAnswer = () => jsonResponse(200, simulation({ name: 'Systole' }));
  fetchMock.mockImplementation((input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    const method = init?.method ?? 'GET';
    requests.push({
      method,
      url: `${url.pathname}${url.search}`,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    if (method === 'GET' && (url.pathname === roomList || url.pathname === `${project}/simulations`))
      return Promise.resolve(listAnswer(url));
    if (method === 'PATCH') return Promise.resolve(patchAnswer());
    if (method === 'DELETE') return Promise.resolve(new Response(null, { status: 204 }));
    if (method === 'POST' && url.pathname.endsWith('/cancel'))
      return Promise.resolve(jsonResponse(200, simulation({ id: 's-2', status: 'cancelled' })));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderList(roomId: string | null = 'r-1') {
  renderWithProviders(
    <MemoryRouter>
      <SimulationList scope={{ deviceId: 'd-1', projectId: 'p-1', roomId }} title="Simulations of this room" />
    </MemoryRouter>,
  );
}

const gets = () => requests.filter((r) => r.method === 'GET');

describe('SimulationList', () => {
  it('shows each run with status, progress, device version, creator, DD.MM.YYYY date and its results link', async () => {
    renderList();
    const rows = await screen.findAllByTestId('simulation-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('Fluid 1')).toBeTruthy();
    expect(first.getByText('Completed')).toBeTruthy();
    expect(first.getByText('857 of 857 ms (100 %)')).toBeTruthy();
    expect(first.getByText('Ring valve')).toBeTruthy();
    expect(first.getByText('Ada Lovelace')).toBeTruthy();
    expect(first.getByText('20.11.2026')).toBeTruthy();
    expect(first.getByRole('link', { name: 'Open results' }).getAttribute('href')).toBe(
      '/projects/room/analyses?project=p-1&room=r-1&simulation=s-1&device=d-1',
    );
    const second = within(rows[1]!);
    expect(second.getByText('Running')).toBeTruthy();
    expect(second.getByText('214 of 857 ms (25 %) · about 2 min left')).toBeTruthy();
    expect(second.getByRole('button', { name: 'Cancel Debris' })).toBeTruthy();
    expect(second.queryByRole('button', { name: 'Retry Debris' })).toBeNull();
  });

  it('asks again while a run is queued or running, and stops once none is', async () => {
    renderList();
    await screen.findAllByTestId('simulation-row');
    listAnswer = () => jsonResponse(200, page([simulation()]));
    await waitFor(() => expect(gets().length).toBeGreaterThanOrEqual(2), { timeout: 4000 });
    await waitFor(() => expect(screen.getAllByTestId('simulation-row')).toHaveLength(1));
    const asked = gets().length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(gets().length).toBe(asked);
  });

  it('searches, sorts and pages on the server', async () => {
    renderList();
    await screen.findAllByTestId('simulation-row');
    fireEvent.change(screen.getByLabelText('Search simulations'), { target: { value: 'debris' } });
    await waitFor(() => expect(gets().at(-1)?.url).toContain('search=debris'));
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(gets().at(-1)?.url).toContain('sort=name&order=asc'));
    expect(gets().at(-1)?.url).toContain('page=1&pageSize=10');
  });

  it('renames in place and shows the server’s refusal of a name the room has', async () => {
    renderList();
    const rows = await screen.findAllByTestId('simulation-row');
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Rename simulation Fluid 1' }));
    const field = within(rows[0]!).getByRole('textbox');
    patchAnswer = () =>
      jsonResponse(409, { error: { code: 'simulation_name_taken', message: simulationNameTakenMessage } });
    fireEvent.change(field, { target: { value: 'Systole' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(await screen.findByText(simulationNameTakenMessage)).toBeTruthy();
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
      url: `${project}/simulations/s-1`,
      body: { name: 'Systole' },
    });
    // Typing another run's name of the same room shows the error before any request.
    fireEvent.click(await within(rows[0]!).findByRole('button', { name: 'Rename simulation Fluid 1' }));
    fireEvent.change(within(rows[0]!).getByRole('textbox'), { target: { value: 'debris' } });
    expect(screen.getAllByText(simulationNameTakenMessage).length).toBeGreaterThan(0);
  });

  it('deletes after a confirmation and refreshes the list; cancels a running run', async () => {
    renderList();
    const rows = await screen.findAllByTestId('simulation-row');
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Delete Fluid 1' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Fluid 1 and all its results will be deleted/)).toBeTruthy();
    const before = gets().length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.url === `${project}/simulations/s-1`)));
    await waitFor(() => expect(gets().length).toBeGreaterThan(before));
    // The dialog's closing transition hides the page from the accessibility tree a moment longer.
    fireEvent.click(await within(rows[1]!).findByRole('button', { name: 'Cancel Debris' }));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'POST' && r.url === `${project}/simulations/s-2/cancel`)).toBe(true),
    );
  });

  it('gives a guest the list without renaming, cancelling, retrying or deleting', async () => {
    listAnswer = () =>
      jsonResponse(200, page([simulation({ status: 'failed', error: 'The simulation diverged.' })], false));
    renderList();
    const [row] = await screen.findAllByTestId('simulation-row');
    expect(within(row!).getByText('Failed')).toBeTruthy();
    expect(within(row!).getByText('The simulation diverged.')).toBeTruthy();
    expect(within(row!).queryByRole('button', { name: /Rename|Retry|Delete|Cancel/ })).toBeNull();
    expect(within(row!).getByRole('link', { name: 'Open results' })).toBeTruthy();
  });

  it('shows the project’s list with each run’s room', async () => {
    renderList(null);
    const [row] = await screen.findAllByTestId('simulation-row');
    expect(gets()[0]!.url.startsWith(`${project}/simulations?`)).toBe(true);
    expect(within(row!).getByRole('link', { name: 'Valve room' }).getAttribute('href')).toBe(
      '/projects/room?project=p-1&room=r-1&device=d-1',
    );
  });
});
