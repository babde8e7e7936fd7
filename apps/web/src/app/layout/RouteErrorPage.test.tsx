import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { assignLocation } from '../../lib/browserLocation';
import { jsonResponse, renderWithProviders } from '../../../test/helpers/renderWithProviders';
import { RouteErrorPage } from './RouteErrorPage';

vi.mock('../../lib/browserLocation', () => ({ assignLocation: vi.fn(), loginUrl: (path: string) => path }));

const chunkError = new TypeError('Failed to fetch dynamically imported module: http://x/assets/RoomScenePage-1a2b.js');

function renderFailing(error: unknown, maintenance: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() =>
      Promise.resolve(jsonResponse(200, { status: 'ok', database: 'ok', maintenance, version: '1' })),
    ),
  );
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        lazy: () => Promise.reject(error),
      },
    ],
    { initialEntries: ['/'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
}

afterEach(() => {
  cleanup();
  vi.mocked(assignLocation).mockReset();
  vi.unstubAllGlobals();
});

describe('route error page', () => {
  it('sends the user to the maintenance notice when a part of the app fails to load during maintenance', async () => {
    renderFailing(chunkError, true);
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith('/maintenance.html'));
    expect(screen.queryByText(/dynamically imported module/)).toBeNull();
  });

  it('explains a failed load without the browser’s words when the workspace is up', async () => {
    renderFailing(chunkError, false);
    expect(await screen.findByText(/a part of the workspace could not be loaded/)).toBeTruthy();
    expect(screen.queryByText(/dynamically imported module/)).toBeNull();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('shows other errors as they are, without asking about maintenance', async () => {
    renderFailing(new Error('Boom'), true);
    expect(await screen.findByText('This page could not be shown: Boom')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
