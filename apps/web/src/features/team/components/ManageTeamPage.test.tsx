import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { roleRefusalMessages, type Team } from '@insilico/contracts';
import { UserContext } from '../../../app/user/userContext';
import { jsonResponse, renderWithProviders, testUser } from '../../../../test/helpers/renderWithProviders';
import { ManageTeamPage } from './ManageTeamPage';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const device = {
  deviceId: 'd-1',
  deviceName: 'Valve A',
  devicePicture: null,
  datetimeCreation: '2026-11-20T09:30:00.000Z',
  role: 'admin',
  userStatus: 'ok',
  isAdmin: true,
} as const;

const adminTeam: Team = {
  canManage: true,
  items: [
    {
      userId: 'u-1',
      invitationId: null,
      info: 'ada@example.com',
      fullName: 'Ada Lovelace',
      pictureUrl: null,
      role: 'admin',
      status: 'ok',
    },
    {
      userId: 'u-2',
      invitationId: null,
      info: 'alan@example.com',
      fullName: 'Alan Turing',
      pictureUrl: null,
      role: 'member',
      status: 'ok',
    },
    {
      userId: 'u-3',
      invitationId: null,
      info: 'grace@example.com',
      fullName: 'Grace Hopper',
      pictureUrl: null,
      role: 'member',
      status: 'pending_approval',
    },
    {
      userId: null,
      invitationId: 'i-1',
      info: 'ken@example.com',
      fullName: null,
      pictureUrl: null,
      role: 'guest',
      status: 'invited',
    },
  ],
};

const fetchMock = vi.fn<typeof fetch>();
let selectedAnswer: typeof device | Record<string, unknown>;
let devicesAnswer: { items: unknown[] };
let teamAnswer: () => Response;
let patchAnswer: () => Response;

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  patchAnswer = () => jsonResponse(200, adminTeam.items[1]);
  selectedAnswer = device;
  devicesAnswer = { items: [device] };
  fetchMock.mockImplementation((input, init) => {
    const url = urlOf(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device: selectedAnswer }));
    if (url === '/api/devices') return Promise.resolve(jsonResponse(200, devicesAnswer));
    if (url === '/api/devices/d-1/team' || url === '/api/devices/d-2/team') return Promise.resolve(teamAnswer());
    if (method === 'PATCH') return Promise.resolve(patchAnswer());
    if (method === 'DELETE') return Promise.resolve(new Response(null, { status: 204 }));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderPage(path = '/manage-team') {
  renderWithProviders(
    <UserContext.Provider
      value={{ user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => {} }}
    >
      <MemoryRouter initialEntries={[path]}>
        <ManageTeamPage />
      </MemoryRouter>
    </UserContext.Provider>,
  );
}

describe('manage team page', () => {
  it('shows admins the team with pending users first and the actions of each row', async () => {
    teamAnswer = () => jsonResponse(200, adminTeam);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Team' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'GHGrace Hopper',
      'ALAda Lovelace (you)',
      'ATAlan Turing',
      'Kken@example.com',
    ]);
    expect(within(rows[0]!).getByRole('button', { name: 'Accept Grace Hopper' })).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(rows[3]!).getByRole('button', { name: 'Revoke the invitation of ken@example.com' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add user' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search the team'), { target: { value: 'nobody' } });
    expect(screen.getByText('No team member matches “nobody”.')).toBeTruthy();
  }, 20_000);

  it('asks before removing, and shows the server’s refusal of a role change', async () => {
    teamAnswer = () => jsonResponse(200, adminTeam);
    patchAnswer = () =>
      jsonResponse(409, {
        error: {
          code: 'last_admin',
          message: 'The last admin of a device cannot be demoted. Make another team member admin first.',
        },
      });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Alan Turing?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Role of Ada Lovelace' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Guest' }));
    expect(
      await screen.findByText('The last admin of a device cannot be demoted. Make another team member admin first.'),
    ).toBeTruthy();
  }, 20_000);

  it('shows the server’s refusal of the team', async () => {
    teamAnswer = () => jsonResponse(403, { error: { code: 'forbidden', message: roleRefusalMessages.team } });
    renderPage();
    expect(await screen.findByText(roleRefusalMessages.team)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
  }, 20_000);

  it('tells a guest at once, in words about the workspace, that they cannot see the team', async () => {
    selectedAnswer = { ...device, role: 'guest', isAdmin: false };
    teamAnswer = () => jsonResponse(200, adminTeam);
    renderPage();
    expect(await screen.findByText(roleRefusalMessages.team)).toBeTruthy();
    expect(roleRefusalMessages.team).not.toMatch(/project/);
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchMock.mock.calls.some(([input]) => urlOf(input).endsWith('/team'))).toBe(false);
  }, 20_000);

  it('opens the workspace a link names (?device=), not the selected one', async () => {
    teamAnswer = () => jsonResponse(200, adminTeam);
    const other = { ...device, deviceId: 'd-2', deviceName: 'Valve B' };
    devicesAnswer = { items: [device, other] };
    renderPage('/manage-team?device=d-2');
    expect(await screen.findByText('Settings · Valve B')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([input]) => urlOf(input) === '/api/devices/d-2/team')).toBe(true);
  }, 20_000);
});
