import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { DeviceSummary } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const device = (id: string, name: string, overrides: Partial<DeviceSummary> = {}): DeviceSummary => ({
  deviceId: id,
  deviceName: name,
  devicePicture: null,
  datetimeCreation: '2026-11-20T09:30:00.000Z',
  role: 'admin',
  userStatus: 'ok',
  isAdmin: true,
  ...overrides,
});

const fetchMock = vi.fn<typeof fetch>();
let devices: DeviceSummary[];
let selectedId: string | null;

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation((input, init) => {
    const url = urlOf(input);
    if (url === '/api/devices') return Promise.resolve(jsonResponse(200, { items: devices }));
    if (url === '/api/me/selected-device' && init?.method === 'PUT') {
      selectedId = (JSON.parse(String(init.body)) as { deviceId: string }).deviceId;
      return Promise.resolve(jsonResponse(200, { device: devices.find((item) => item.deviceId === selectedId) }));
    }
    if (url === '/api/me/selected-device')
      return Promise.resolve(
        jsonResponse(200, { device: devices.find((item) => item.deviceId === selectedId) ?? null }),
      );
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderSwitcher() {
  renderWithProviders(
    <MemoryRouter>
      <WorkspaceSwitcher />
    </MemoryRouter>,
  );
}

describe('workspace switcher', () => {
  it('lists the workspaces with their role, the selected one current, pending ones disabled', async () => {
    devices = [
      device('d-1', 'Valve A'),
      device('d-2', 'Stent B', { role: 'guest', isAdmin: false }),
      device('d-3', 'Pump C', { role: 'member', userStatus: 'pending_approval', isAdmin: false }),
    ];
    selectedId = 'd-1';
    renderSwitcher();
    fireEvent.click(await screen.findByRole('button', { name: 'Workspace: Valve A' }));
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'VAValve AAdmin',
      'SBStent BGuest',
      'PCPump CWaiting for an admin’s approval',
      'Add device',
    ]);
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    expect(items[2]!.getAttribute('aria-disabled')).toBe('true');
    expect(within(menu).getByRole('menuitem', { name: 'Add device' }).getAttribute('href')).toBe('/add-device');
  }, 20_000);

  it('selects another workspace on the server and shows it', async () => {
    devices = [device('d-1', 'Valve A'), device('d-2', 'Stent B', { role: 'member', isAdmin: false })];
    selectedId = 'd-1';
    renderSwitcher();
    fireEvent.click(await screen.findByRole('button', { name: 'Workspace: Valve A' }));
    fireEvent.click(within(await screen.findByRole('menu')).getByText('Stent B'));
    expect(await screen.findByRole('button', { name: 'Workspace: Stent B' })).toBeTruthy();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ deviceId: 'd-2' });
  }, 20_000);

  it('offers the first device to a user without any', async () => {
    devices = [];
    selectedId = null;
    renderSwitcher();
    fireEvent.click(await screen.findByRole('button', { name: 'Workspace: none' }));
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Set up your first device' })).toBeTruthy());
    expect(screen.queryByRole('menuitem', { name: 'Add device' })).toBeNull();
  }, 20_000);
});
