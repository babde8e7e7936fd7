import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Room } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { ShareRoomDialog } from './ShareRoomDialog';

const projectId = '11111111-1111-4111-8111-111111111111';
const grace = '22222222-2222-4222-8222-222222222222';
const room = { id: '44444444-4444-4444-8444-444444444444', name: 'Roots room' } as Room;
const sharesPath = `/api/devices/d-1/projects/${projectId}/rooms/${room.id}/shares`;

const team = (graceShared: boolean) => ({
  items: [
    { userId: grace, name: 'Grace Hopper', email: 'grace@example.com', shared: graceShared, sharedAt: null },
    {
      userId: '33333333-3333-4333-8333-333333333333',
      name: 'Alan Turing',
      email: 'alan@example.com',
      shared: true,
      sharedAt: '2026-11-20T09:30:00.000Z',
    },
  ],
});
let shareAnswer: Response;
const posted: unknown[] = [];

beforeEach(() => {
  posted.length = 0;
  shareAnswer = jsonResponse(200, team(true));
  stubApi((url, init) => {
    if (url.pathname !== sharesPath) return undefined;
    if (init?.method !== 'POST') return jsonResponse(200, team(false));
    posted.push(JSON.parse(String(init.body)));
    return shareAnswer;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function openDialog() {
  const onShared = vi.fn();
  renderWithProviders(
    <ShareRoomDialog deviceId="d-1" projectId={projectId} room={room} onClose={() => {}} onShared={onShared} />,
  );
  return onShared;
}
const shareButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Share' });

describe('ShareRoomDialog', () => {
  it('shares with the members chosen; those it is shared with already cannot be chosen again', async () => {
    const onShared = openDialog();
    expect(screen.getByRole('dialog', { name: 'Share Roots room' })).toBeTruthy();
    const alan = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Alan Turing' });
    expect(alan.checked).toBe(true);
    expect(shareButton().disabled).toBe(true);
    fireEvent.click(screen.getByText('Grace Hopper'));
    fireEvent.click(shareButton());
    await waitFor(() => expect(onShared).toHaveBeenCalledTimes(1));
    expect(posted).toEqual([{ userIds: [grace] }]);
  });

  it('shows the server’s refusal and may be sent again', async () => {
    shareAnswer = jsonResponse(403, { error: { code: 'forbidden', message: 'Only the project team may do this.' } });
    const onShared = openDialog();
    fireEvent.click(await screen.findByText('Grace Hopper'));
    fireEvent.click(shareButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Only the project team may do this.');
    expect(shareButton().disabled).toBe(false);
    expect(onShared).not.toHaveBeenCalled();
  });
});
