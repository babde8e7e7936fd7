import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { DeviceSummary } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { AcceptInvitationPage } from './AcceptInvitationPage';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const pending: DeviceSummary = {
  deviceId: 'd-1',
  deviceName: 'Valve A',
  devicePicture: null,
  datetimeCreation: '2026-11-20T09:30:00.000Z',
  role: 'member',
  userStatus: 'pending_approval',
  isAdmin: false,
};

const fetchMock = vi.fn<typeof fetch>();
let acceptAnswer: () => Response;

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation((input) => {
    const url = urlOf(input);
    if (url === '/api/invitations/accept') return Promise.resolve(acceptAnswer());
    if (url === '/api/devices') return Promise.resolve(jsonResponse(200, { items: [pending] }));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/accept-invitation', element: <AcceptInvitationPage /> }], {
    initialEntries: [path],
  });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

const acceptCalls = () => fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/invitations/accept');

describe('invitation link page', () => {
  it('accepts the token once, drops it from the address and waits for an admin', async () => {
    acceptAnswer = () => jsonResponse(200, { device: pending });
    const router = renderAt('/accept-invitation?token=first-token-of-the-test-1234567890');
    expect(await screen.findByRole('heading', { name: 'Waiting for an admin to accept you' })).toBeTruthy();
    expect(screen.getByText(/You have joined “Valve A” as a member\./)).toBeTruthy();
    expect(router.state.location.search).toBe('?device=d-1');
    expect(acceptCalls()).toHaveLength(1);
  }, 20_000);

  it.each([
    ['invitation_used', 409, 'This invitation has been used already'],
    ['invitation_expired', 409, 'This invitation has expired'],
    ['invitation_invalid', 404, 'This invitation link is not valid'],
  ])(
    'shows %s clearly with the server’s message',
    async (code, status, title) => {
      acceptAnswer = () => jsonResponse(status, { error: { code, message: `Server says ${code}.` } });
      renderAt(`/accept-invitation?token=token-for-${code}-0123456789abcdef`);
      expect(await screen.findByText(title)).toBeTruthy();
      expect(screen.getByText(`Server says ${code}.`)).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Go to my workspace' })).toBeTruthy();
    },
    20_000,
  );

  it('says so when the link has no token', async () => {
    renderAt('/accept-invitation');
    await waitFor(() => expect(screen.getByText('This invitation link is incomplete')).toBeTruthy());
    expect(acceptCalls()).toHaveLength(0);
  }, 20_000);
});
