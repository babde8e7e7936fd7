import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
// RouterProvider from 'react-router' (see routes.test.tsx): one copy of the router context.
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { DesignHistoryList } from '@insilico/contracts';
import { UserContext } from '../../../app/user/userContext';
import { leavePageMessage } from '../../../components/useLeaveConfirmation';
import { jsonResponse, renderWithProviders, testUser } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { DesignHistoryRoute } from './DesignHistoryRoute';

const valve = { id: '11111111-1111-4111-8111-111111111111', name: 'Valve sizing', canWork: true, canSign: true };
const list: DesignHistoryList = {
  items: [],
  nextBefore: null,
  projects: [valve],
  signing: { method: 'password', needsEmail: true },
};

beforeEach(() => {
  stubApi((url) => {
    if (url.pathname.endsWith('/design-history/exports')) return jsonResponse(200, { items: [] });
    if (url.pathname.endsWith('/design-history')) return jsonResponse(200, list);
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const signedIn = { user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => {} };

function renderRoute() {
  const router = createMemoryRouter(
    [
      { path: '/design-history', element: <DesignHistoryRoute /> },
      { path: '/projects/overview', element: <h1>Projects page</h1> },
    ],
    { initialEntries: ['/design-history'] },
  );
  renderWithProviders(
    <UserContext.Provider value={signedIn}>
      <RouterProvider router={router} />
    </UserContext.Provider>,
  );
  return router;
}

async function startEntry() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add entry' }));
  return screen.getByRole('form', { name: 'New design history entry' });
}

describe('the design history route (spec §4 "Leaving a page with unsaved progress")', () => {
  it('asks with Stay and Leave before leaving with a new entry that holds input', async () => {
    const router = renderRoute();
    const form = await startEntry();
    fireEvent.change(within(form).getByLabelText(/Title/), { target: { value: 'Fatigue protocol' } });

    await act(() => router.navigate('/projects/overview'));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the page?' });
    expect(dialog.textContent).toContain(leavePageMessage);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/design-history');
    expect(within(form).getByLabelText<HTMLInputElement>(/Title/).value).toBe('Fatigue protocol');

    await act(() => router.navigate('/projects/overview'));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Projects page' })).toBeTruthy();
  });

  it('leaves without asking when the new entry is still as it was started', async () => {
    const router = renderRoute();
    await startEntry();
    await act(() => router.navigate('/projects/overview'));
    expect(await screen.findByRole('heading', { name: 'Projects page' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('changes a filter (the address within the page) without asking, keeping the entry', async () => {
    const router = renderRoute();
    const form = await startEntry();
    fireEvent.change(within(form).getByLabelText(/Title/), { target: { value: 'Fatigue protocol' } });
    await act(() => router.navigate(`/design-history?projectId=${valve.id}`));
    expect(router.state.location.search).toBe(`?projectId=${valve.id}`);
    expect(screen.queryByRole('dialog')).toBeNull();
    const shown = await screen.findByRole('form', { name: 'New design history entry' });
    expect(within(shown).getByLabelText<HTMLInputElement>(/Title/).value).toBe('Fatigue protocol');
  });
});
