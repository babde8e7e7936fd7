import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { lastTeamMemberMessage, type ProjectPerson } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { ProjectTeamPanel } from './ProjectTeamPanel';

const ada: ProjectPerson = { id: 'u-1', name: 'Ada Lovelace', initials: 'AL', pictureUrl: null, role: 'admin' };
const grace: ProjectPerson = { id: 'u-2', name: 'Grace Hopper', initials: 'GH', pictureUrl: null, role: 'member' };

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>((_input, init) => {
    if (init?.method === 'DELETE') return Promise.resolve(jsonResponse(200, { items: [ada], canManage: true }));
    return Promise.resolve(jsonResponse(200, { items: [] }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const deletes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE');

describe('ProjectTeamPanel (spec §4 "Project status")', () => {
  it('refuses removing the last user with the suggestion to abandon the project, and asks the server nothing', async () => {
    renderWithProviders(<ProjectTeamPanel deviceId="d-1" projectId="p-1" team={[ada]} canManage />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ada Lovelace from the project' }));
    const dialog = await screen.findByRole('dialog', { name: 'The last user cannot be removed' });
    expect(within(dialog).getByText(lastTeamMemberMessage)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Remove' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes()).toHaveLength(0);
  });

  it('removes one of several users after asking', async () => {
    renderWithProviders(<ProjectTeamPanel deviceId="d-1" projectId="p-1" team={[ada, grace]} canManage />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Grace Hopper from the project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove from the project?' });
    expect(within(dialog).getByText('Grace Hopper will no longer be on the team of this project.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(deletes()).toHaveLength(1));
  });
});
