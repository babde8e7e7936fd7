import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { teamNoMatchMessage, type Team } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../test/helpers/renderWithProviders';
import { matchesUser, WorkspaceUserSearch } from './WorkspaceUserSearch';

configure({ asyncUtilTimeout: 5000 });

const row = (userId: string, fullName: string, status: 'ok' | 'pending_approval' | 'invited') => ({
  userId: status === 'invited' ? null : userId,
  invitationId: status === 'invited' ? `i-${userId}` : null,
  info: `${fullName.split(' ')[0]!.toLowerCase()}@example.com`,
  fullName: status === 'invited' ? null : fullName,
  pictureUrl: null,
  role: 'member' as const,
  status,
});

const team: Team = {
  canManage: false,
  items: [
    row('u-1', 'Ada Lovelace', 'ok'),
    row('u-2', 'Alan Turing', 'ok'),
    row('u-3', 'Grace Hopper', 'pending_approval'),
    row('u-4', 'Edsger Dijkstra', 'invited'),
  ],
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => jsonResponse(200, team));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('WorkspaceUserSearch', () => {
  it('offers only ok members, minus the excluded ones, and hands the chosen one over', async () => {
    const onSelect = vi.fn();
    renderWithProviders(<WorkspaceUserSearch deviceId="d-1" excludeUserIds={['u-1']} onSelect={onSelect} />);
    const input = screen.getByRole('combobox', { name: 'Add a team member' });
    // Focused, as a person typing: an unfocused Autocomplete resets what was typed.
    fireEvent.focus(input);
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: 'a' } });
    expect(await screen.findByRole('option', { name: /Alan Turing/ })).toBeTruthy();
    expect(screen.queryByRole('option', { name: /Ada Lovelace/ })).toBeNull();
    expect(screen.queryByRole('option', { name: /Grace Hopper/ })).toBeNull();
    fireEvent.click(screen.getByRole('option', { name: /Alan Turing/ }));
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ userId: 'u-2', fullName: 'Alan Turing' }));
    await waitFor(() => expect((input as HTMLInputElement).value).toBe(''));
  });

  it('says the spec message when nobody matches', async () => {
    renderWithProviders(<WorkspaceUserSearch deviceId="d-1" onSelect={() => {}} />);
    const input = screen.getByRole('combobox', { name: 'Add a team member' });
    // Focused, as a person typing: an unfocused Autocomplete resets what was typed.
    fireEvent.focus(input);
    fireEvent.mouseDown(input);
    fireEvent.change(input, { target: { value: 'alan' } });
    expect(await screen.findByRole('option', { name: /Alan Turing/ })).toBeTruthy();
    // Grace is still pending approval: not a user a project can take.
    fireEvent.change(input, { target: { value: 'grace' } });
    expect(await screen.findByText(teamNoMatchMessage)).toBeTruthy();
  });

  it('matches every typed word in the name or the e-mail', () => {
    const user = {
      userId: 'u',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'member' as const,
      pictureUrl: null,
    };
    expect(matchesUser(user, 'love ADA')).toBe(true);
    expect(matchesUser(user, 'example')).toBe(true);
    expect(matchesUser(user, 'ada turing')).toBe(false);
  });
});
