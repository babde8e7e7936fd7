import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { UserContext } from '../../app/user/userContext';
import { forgetAnalyticsUser, trackAfter } from '../../lib/analytics';
import { renderWithProviders, testUser } from '../../../test/helpers/renderWithProviders';
import { Analytics } from './Analytics';
import { AnalyticsConsentSetting } from './AnalyticsConsentSetting';

const fetchMock = vi.fn<typeof fetch>();

function renderShell() {
  return renderWithProviders(
    <UserContext.Provider
      value={{ user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => undefined }}
    >
      <MemoryRouter initialEntries={['/projects/3f2a1c4e-1b2c-4d5e-8f90-123456789abc']}>
        <Analytics />
        <AnalyticsConsentSetting />
      </MemoryRouter>
    </UserContext.Provider>,
  );
}

function clearConsent() {
  document.cookie = 'insilico_analytics=; Path=/; Max-Age=0';
  window.localStorage.clear();
}

beforeEach(() => {
  clearConsent();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) =>
    String(input) === '/api/analytics/config'
      ? new Response(JSON.stringify({ key: 'k', url: '/api/analytics/ingest' }), { status: 200 })
      : new Response('success', { status: 200 }),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  clearConsent();
  vi.unstubAllGlobals();
});

describe('analytics consent', () => {
  it('asks first and records nothing until the user allows it; "No, thanks" is remembered', () => {
    const { unmount } = renderShell();
    expect(screen.getByRole('region', { name: 'Analytics consent' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'No, thanks' }));
    expect(screen.queryByRole('region', { name: 'Analytics consent' })).toBeNull();
    expect(document.cookie).not.toContain('insilico_analytics');
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Share product analytics' }).checked).toBe(false);
    unmount();
    renderShell();
    expect(screen.queryByRole('region', { name: 'Analytics consent' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('allowing sets the analytics cookie, then the user id and a page view are recorded; the switch withdraws it', async () => {
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Allow analytics' }));
    expect(document.cookie).toContain('insilico_analytics=1');
    const switchInput = screen.getByRole<HTMLInputElement>('switch', { name: 'Share product analytics' });
    expect(switchInput.checked).toBe(true);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/analytics/config', expect.anything()));
    await waitFor(() => {
      const saved = JSON.parse(window.localStorage.getItem('insilico.analytics') ?? '{}') as {
        userId?: string;
        queue?: Array<{ event_type: string; event_properties: Record<string, unknown> }>;
      };
      expect(saved.userId).toBe(testUser.email);
      expect(saved.queue?.map((event) => event.event_type)).toEqual(
        expect.arrayContaining(['signed in', '$identify', 'page viewed']),
      );
      expect(saved.queue?.find((event) => event.event_type === 'page viewed')?.event_properties).toEqual({
        route: '/projects/:id',
      });
    });
    fireEvent.click(switchInput);
    expect(document.cookie).not.toContain('insilico_analytics');
    expect(JSON.parse(window.localStorage.getItem('insilico.analytics')!)).toMatchObject({ queue: [] });
  });

  it('sign-out sends what waits by beacon while the session exists, and forgets the user', async () => {
    const sendBeacon = vi.fn((_url: string, _body: URLSearchParams) => true);
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { sendBeacon }));
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Allow analytics' }));
    await waitFor(() => {
      const saved = JSON.parse(window.localStorage.getItem('insilico.analytics') ?? '{}') as { queue?: unknown[] };
      expect(saved.queue?.length).toBeGreaterThan(0);
    });
    forgetAnalyticsUser();
    expect(sendBeacon).toHaveBeenCalledTimes(1);
    const [url, body] = sendBeacon.mock.calls[0]!;
    expect(url).toBe('/api/analytics/ingest');
    expect(body.get('client')).toBe('k');
    expect(JSON.parse(window.localStorage.getItem('insilico.analytics')!)).toMatchObject({ userId: null, queue: [] });
  });

  it('trackAfter hands an API answer on unchanged and records its event with the ids only with consent', async () => {
    const created = { id: 'p-9', title: 'Aorta study' };
    const record = trackAfter('project created', (project: typeof created) => ({
      deviceId: 'd-1',
      projectId: project.id,
    }));
    expect(record(created)).toBe(created);
    expect(fetchMock).not.toHaveBeenCalled(); // no consent yet: nothing at all
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'Allow analytics' }));
    expect(record(created)).toBe(created);
    await waitFor(() => {
      const saved = JSON.parse(window.localStorage.getItem('insilico.analytics') ?? '{}') as {
        queue?: Array<{ event_type: string; event_properties: Record<string, unknown> }>;
      };
      expect(saved.queue?.find((event) => event.event_type === 'project created')?.event_properties).toEqual({
        deviceId: 'd-1',
        projectId: 'p-9',
      });
    });
  });
});
