import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { ActivityItem, ActivityList } from '@insilico/contracts';
import { jsonResponse, renderWithProviders, testSelectedDevice } from '../../../../test/helpers/renderWithProviders';
import { ActivityFeedPage } from './ActivityFeedPage';

/** Stands in for the browser's EventSource: records instances and lets a test push events. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

function item(id: number, overrides: Partial<ActivityItem> = {}): ActivityItem {
  return {
    id,
    occurredAt: '2026-11-20T09:30:00.000Z',
    action: 'project.status_changed',
    kind: 'project',
    actor: { id: 'u-2', name: 'Ada Admin' },
    objectType: 'project',
    objectId: 'p-1',
    project: { id: 'p-1', name: 'Valve sizing' },
    summary: `Ada Admin completed the project Valve sizing (${id})`,
    reason: null,
    link: '/projects/view/stats?project=p-1&device=d-1',
    ...overrides,
  };
}

const facets = {
  kinds: ['comment', 'project'],
  projects: [{ id: 'p-1', name: 'Valve sizing' }],
  people: [{ id: 'u-2', name: 'Ada Admin' }],
};
let answers: Record<string, ActivityList>;
let selected: Omit<typeof testSelectedDevice, 'role' | 'isAdmin'> & { role: string; isAdmin: boolean } =
  testSelectedDevice;
const requested: string[] = [];

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.search}</output>;
}

function renderPage(path = '/activity-feed') {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/activity-feed"
          element={
            <>
              <ActivityFeedPage />
              <Address />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  selected = testSelectedDevice;
  FakeEventSource.instances = [];
  requested.length = 0;
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://x',
      );
      if (url.pathname === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device: selected }));
      if (url.pathname === '/api/devices/d-1/activity') {
        requested.push(url.search);
        const answer = answers[url.search];
        if (answer) return Promise.resolve(jsonResponse(200, answer));
      }
      return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the activity feed page', () => {
  it('lists the events with their reason and link, pages, and puts a live event on top', async () => {
    answers = {
      '?limit=25': { items: [item(3, { reason: 'Study finished' }), item(2)], nextBefore: 2, ...facets },
      '?limit=25&before=2': { items: [item(1)], nextBefore: null, ...facets },
    };
    renderPage();
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(
      within(list)
        .getByRole('link', { name: /completed the project Valve sizing \(3\)/ })
        .getAttribute('href'),
    ).toBe('/projects/view/stats?project=p-1&device=d-1');
    expect(within(list).getByText('Reason: Study finished')).toBeTruthy();

    screen.getByRole('button', { name: 'Show older activity' }).click();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Show older activity' })).toBeNull();

    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/notifications/stream?device=d-1');
    act(() => source.emit('activity', item(4, { summary: 'Bea commented on the project Valve sizing' })));
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('Bea commented on the project'),
    );
    // The same event twice (a reconnect) is shown once.
    act(() => source.emit('activity', item(4, { summary: 'Bea commented on the project Valve sizing' })));
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
  });

  it('keeps the filters in the address, asks the server with them, and leaves out live events they exclude', async () => {
    answers = {
      '?limit=25&kind=comment': { items: [], nextBefore: null, ...facets },
    };
    renderPage('/activity-feed?kind=comment');
    expect(await screen.findByText('No activity matches these filters.')).toBeTruthy();
    expect(requested).toContain('?limit=25&kind=comment');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.instances[0]!.emit('activity', item(9)));
    expect(screen.queryByRole('list', { name: 'Activity' })).toBeNull();
    screen.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor(() => expect(screen.getByRole('status', { name: 'address' }).textContent).toBe(''));
  });

  it('says so when there is no activity yet, and shows a refusal with a way to try again', async () => {
    answers = { '?limit=25': { items: [], nextBefore: null, kinds: [], projects: [], people: [] } };
    const empty = renderPage();
    expect(await screen.findByText('No activity yet. Changes your team makes appear here.')).toBeTruthy();
    empty.unmount();
    answers = {};
    renderPage();
    expect(await screen.findByText('No such API route.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('offers admins the audit trail for inspectors as a ZIP, and members not', async () => {
    answers = { '?limit=25': { items: [item(1)], nextBefore: null, ...facets } };
    const admin = renderPage();
    const link = await screen.findByRole('link', { name: 'Export the audit trail for inspectors (ZIP)' });
    expect(link.getAttribute('href')).toBe('/api/devices/d-1/audit/export?format=zip');
    expect(link.hasAttribute('download')).toBe(true);
    admin.unmount();
    selected = { ...testSelectedDevice, role: 'member', isAdmin: false };
    renderPage();
    await screen.findByRole('list', { name: 'Activity' });
    expect(screen.queryByRole('link', { name: /Export the audit trail/ })).toBeNull();
  });
});
