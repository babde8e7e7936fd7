import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { assignLocation } from '../../lib/browserLocation';
import type * as BrowserLocation from '../../lib/browserLocation';
import { jsonResponse, renderWithProviders, testUser } from '../../../test/helpers/renderWithProviders';
import { RequireUser } from './RequireUser';
import { UserProvider } from './UserProvider';
import { useUser } from './userContext';

vi.mock('../../lib/browserLocation', async (importOriginal) => ({
  ...(await importOriginal<typeof BrowserLocation>()),
  assignLocation: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();

function Probe() {
  const { user, error, isLoading } = useUser();
  return (
    <p>
      {isLoading ? 'loading' : 'settled'} | user:{' '}
      {user === undefined ? 'undefined' : user === null ? 'none' : user.fullName} | error:{' '}
      {error ? `${error.status}` : 'none'}
    </p>
  );
}

function renderProtected(path: string) {
  return renderWithProviders(
    <UserProvider>
      <MemoryRouter initialEntries={[path]}>
        <Probe />
        <RequireUser>
          <h1>Protected page</h1>
        </RequireUser>
      </MemoryRouter>
    </UserProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.mocked(assignLocation).mockReset();
  vi.unstubAllGlobals();
});

describe('UserProvider and RequireUser', () => {
  it('shows a quiet placeholder while the profile loads', () => {
    fetchMock.mockReturnValue(new Promise<Response>(() => undefined));
    renderProtected('/projects/overview');
    expect(screen.getByText('Signing you in…')).toBeTruthy();
    expect(screen.getByText(/loading \| user: undefined/)).toBeTruthy();
    expect(screen.queryByText('Protected page')).toBeNull();
  });

  it('renders the page for a signed-in user (200)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, testUser));
    renderProtected('/projects/overview');
    expect(await screen.findByRole('heading', { name: 'Protected page' })).toBeTruthy();
    expect(screen.getByText(/user: Ada Lovelace \| error: none/)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/auth/me');
    expect(init?.credentials).toBe('same-origin');
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('redirects to sign-in with the path and query as returnTo when there is no user (401)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: 'unauthenticated', message: 'Sign in first' } }));
    renderProtected('/projects/overview?stage=concept');
    await waitFor(() => {
      expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?returnTo=%2Fprojects%2Foverview%3Fstage%3Dconcept');
    });
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/user: none \| error: none/)).toBeTruthy();
    expect(screen.getByText('Redirecting to sign-in…')).toBeTruthy();
    expect(screen.queryByText('Protected page')).toBeNull();
  });

  it('shows an error placeholder carrying the status for any other failure (500)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { error: { code: 'internal', message: 'Something broke.' } }));
    renderProtected('/projects/overview');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('status 500');
    expect(screen.getByText(/user: undefined \| error: 500/)).toBeTruthy();
    expect(assignLocation).not.toHaveBeenCalled();
    expect(screen.queryByText('Protected page')).toBeNull();
  });

  it('reports a network failure as status 0, and Retry fetches again', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderProtected('/projects/overview');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('status 0');
    expect(screen.getByText(/error: 0/)).toBeTruthy();

    fetchMock.mockResolvedValueOnce(jsonResponse(200, testUser));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Protected page' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('treats a profile that breaks the contract as an error, not as a user', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { id: 'u-1' }));
    renderProtected('/');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByText('Protected page')).toBeNull();
  });

  it('fetches the profile once for several consumers (deduped)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, testUser));
    renderWithProviders(
      <UserProvider>
        <Probe />
        <Probe />
      </UserProvider>,
    );
    await waitFor(() => expect(screen.getAllByText(/user: Ada Lovelace/)).toHaveLength(2));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('useUser', () => {
  it('throws the spec message outside its provider', () => {
    // React logs the thrown error; keep the test output clean.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Probe />)).toThrow(new Error('You forgot to wrap your app in <UserProvider>'));
    consoleError.mockRestore();
  });
});
