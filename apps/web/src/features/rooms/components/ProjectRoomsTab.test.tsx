import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { roomNameTakenMessage, type Room, type RoomPage } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { ProjectRoomsTab } from './ProjectRoomsTab';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const base = '/api/devices/d-1/projects/p-1/rooms';

function room(id: string, name: string, patientId: string): Room {
  return {
    id,
    projectId: 'p-1',
    name,
    subject: { kind: 'patient', cohortId: 'c-1', cohortName: 'Mitral A', patientId },
    hasSimulation: false,
    placementCount: 1,
    screenshotCount: 0,
    latestScreenshot: null,
    sharedWith: [],
    createdBy: { id: 'u-1', name: 'Ada Lovelace' },
    createdAt: '2026-11-20T09:30:00.000Z',
    updatedAt: '2026-11-20T09:30:00.000Z',
  };
}

function page(items: Room[], canEdit = true): RoomPage {
  return {
    items,
    total: items.length,
    page: 1,
    pageSize: 24,
    facets: {
      patients: [
        { cohortId: 'c-1', cohortName: 'Mitral A', patientId: 'SYN-000001' },
        { cohortId: 'c-1', cohortName: 'Mitral A', patientId: 'SYN-000002' },
      ],
      ssms: [],
    },
    cohorts: [{ cohortId: 'c-1', name: 'Mitral A', status: 'ready' }],
    canEdit,
  };
}

const requests: { method: string; url: string }[] = [];
let listAnswer: (url: URL) => Response;
let patchAnswer: () => Response;

beforeEach(() => {
  requests.length = 0;
  listAnswer = () =>
    jsonResponse(200, page([room('r-1', 'Valve room', 'SYN-000001'), room('r-2', 'Baseline', 'SYN-000002')]));
  patchAnswer = () => jsonResponse(200, room('r-1', 'Renamed', 'SYN-000001'));
  stubApi((url, init) => {
    const method = init?.method ?? 'GET';
    requests.push({ method, url: `${url.pathname}${url.search}` });
    if (method === 'GET' && url.pathname === base) return listAnswer(url);
    if (method === 'PATCH' && url.pathname === `${base}/r-1`) return patchAnswer();
    // The project's simulations at the foot of the tab (features/simulations): none here.
    if (method === 'GET' && url.pathname === '/api/devices/d-1/projects/p-1/simulations')
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 10, canRun: true });
    // The project's trials below them (features/trials): none here.
    if (method === 'GET' && url.pathname === '/api/devices/d-1/projects/p-1/trials')
      return jsonResponse(200, { items: [], canRun: true });
    return undefined;
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTab() {
  renderWithProviders(
    <MemoryRouter initialEntries={['/projects/view/rooms?project=p-1&device=d-1']}>
      <ProjectRoomsTab />
    </MemoryRouter>,
  );
}

describe('ProjectRoomsTab', () => {
  it('shows the rooms as cards with their patient and the synthetic label', async () => {
    renderTab();
    const card = await screen.findByRole('article', { name: 'Room Valve room' });
    expect(within(card).getByText('SYN-000001')).toBeTruthy();
    expect(within(card).getByText('Synthetic')).toBeTruthy();
    expect(within(card).getByText('1 device placed')).toBeTruthy();
    expect(within(card).getByText('Created 20.11.2026 by Ada Lovelace', { exact: false })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New room' })).toBeTruthy();
  });

  it('says so when the project has no rooms, and when filters find none', async () => {
    listAnswer = () => jsonResponse(200, page([]));
    renderTab();
    expect(await screen.findByText('This project has no rooms yet.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search rooms' }), { target: { value: 'zzz' } });
    expect(await screen.findByText('No room matches these filters.')).toBeTruthy();
    await waitFor(() => expect(requests.some((request) => request.url.includes('search=zzz'))).toBe(true));
  });

  it('shows why the rooms could not be loaded, and Retry asks again', async () => {
    listAnswer = () => jsonResponse(500, { error: { code: 'internal', message: 'The database is unavailable.' } });
    renderTab();
    expect(await screen.findByText('The rooms could not be loaded. The database is unavailable.')).toBeTruthy();
    const before = requests.length;
    listAnswer = () => jsonResponse(200, page([room('r-1', 'Valve room', 'SYN-000001')]));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Room Valve room' })).toBeTruthy();
    expect(requests.length).toBeGreaterThan(before);
  });

  it('cancels a rename to a name the server finds taken, with the duplicate message', async () => {
    patchAnswer = () => jsonResponse(409, { error: { code: 'room_name_taken', message: roomNameTakenMessage } });
    renderTab();
    const card = await screen.findByRole('article', { name: 'Room Valve room' });
    fireEvent.click(within(card).getByRole('button', { name: 'Rename room Valve room' }));
    const input = within(card).getByRole('textbox', { name: 'Room name' });
    fireEvent.change(input, { target: { value: 'Taken by someone else' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((await within(card).findByRole('alert')).textContent).toBe(roomNameTakenMessage);
    expect(within(card).getByText('Valve room')).toBeTruthy();
    expect(requests.some((request) => request.method === 'PATCH')).toBe(true);
  });

  it('filters by patient through the query', async () => {
    renderTab();
    await screen.findByRole('article', { name: 'Room Valve room' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Patient' }));
    fireEvent.click(await screen.findByRole('option', { name: 'SYN-000002 · Mitral A' }));
    await waitFor(() =>
      expect(requests.some((request) => request.url.includes('cohortId=c-1&patientId=SYN-000002'))).toBe(true),
    );
  });

  it('offers no changes to someone who may only read', async () => {
    listAnswer = () => jsonResponse(200, page([room('r-1', 'Valve room', 'SYN-000001')], false));
    renderTab();
    const card = await screen.findByRole('article', { name: 'Room Valve room' });
    expect(within(card).queryByRole('button', { name: /Rename room/ })).toBeNull();
    expect(within(card).queryByRole('button', { name: /Delete room/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New room' })).toBeNull();
  });
});
