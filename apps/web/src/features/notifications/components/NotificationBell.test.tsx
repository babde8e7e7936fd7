import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import useSWR from 'swr';
import type { Notification, NotificationList } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { NotificationBell } from './NotificationBell';

/** Stands in for the browser's EventSource: records instances and lets a test push events. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  private listeners = new Map<string, Set<(event: MessageEvent) => void>>();

  constructor(url: string) {
    this.url = url;
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
    const event = new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

function notification(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'test',
    title: `Title ${id}`,
    body: `Body ${id}`,
    link: null,
    createdAt: '2026-11-20T09:30:00.000Z',
    seenAt: null,
    ...overrides,
  };
}

const fetchMock = vi.fn<typeof fetch>();
let pages: Record<string, NotificationList>;
let seenAnswer: Response;

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

function seenCalls() {
  return fetchMock.mock.calls.filter(([input]) => urlOf(input) === '/api/notifications/seen');
}

function renderBell() {
  return renderWithProviders(
    <MemoryRouter>
      <NotificationBell />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('fetch', fetchMock);
  seenAnswer = jsonResponse(200, { hasUnseen: false });
  pages = { '/api/notifications?limit=20': { items: [], hasUnseen: false, nextBefore: null } };
  fetchMock.mockImplementation((input) => {
    const url = urlOf(input);
    if (url === '/api/notifications/seen') return Promise.resolve(seenAnswer);
    const page = pages[url];
    if (page) return Promise.resolve(jsonResponse(200, page));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: `No page ${url}` } }));
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('NotificationBell', () => {
  it('shows the unseen dot, lists notifications when opened and marks the unseen ones seen', async () => {
    pages['/api/notifications?limit=20'] = {
      items: [notification('n-2'), notification('n-1', { seenAt: '2026-11-19T00:00:00.000Z' })],
      hasUnseen: true,
      nextBefore: null,
    };
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, unseen notifications' });
    fireEvent.click(bell);

    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getByText('Title n-2')).toBeTruthy();
    expect(within(panel).getByText('Title n-1')).toBeTruthy();
    expect(within(panel).getAllByText('20.11.2026 09:30', { exact: false }).length).toBeGreaterThan(0);

    await waitFor(() => expect(seenCalls()).toHaveLength(1));
    const [, init] = seenCalls()[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ ids: ['n-2'] }));
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init?.credentials).toBe('same-origin');

    // The panel is modal, so the bell behind it is hidden from the accessibility tree meanwhile.
    await screen.findByRole('button', { name: 'Notifications', hidden: true });
    // The one that was new when the panel opened stays marked as new while it is open.
    expect(within(panel).getByText('New:', { exact: false })).toBeTruthy();
  });

  it('says so when there are no notifications, and marks nothing', async () => {
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    expect(seenCalls()).toHaveLength(0);
  });

  it('pages with "Load more" using the cursor of the previous page', async () => {
    pages['/api/notifications?limit=20'] = {
      items: [notification('n-3', { seenAt: '2026-11-20T10:00:00.000Z' })],
      hasUnseen: false,
      nextBefore: '2026-11-20T09:30:00.000Z',
    };
    pages['/api/notifications?limit=20&before=2026-11-20T09%3A30%3A00.000Z'] = {
      items: [notification('n-1', { seenAt: '2026-11-19T00:00:00.000Z', title: 'Older one' })],
      hasUnseen: false,
      nextBefore: null,
    };
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Older one')).toBeTruthy();
    expect(screen.getByText('Title n-3')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });

  it('shows an error with Retry when the list cannot be loaded', async () => {
    pages = {};
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText(/Notifications could not be loaded \(status 404\)/)).toBeTruthy();

    pages['/api/notifications?limit=20'] = {
      items: [notification('n-9', { seenAt: '2026-11-19T00:00:00.000Z' })],
      hasUnseen: false,
      nextBefore: null,
    };
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Title n-9')).toBeTruthy();
  });

  it('follows the stream: a new notification sets the dot, an unseen event clears it', async () => {
    renderBell();
    await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0];
    expect(source?.url).toBe('/api/notifications/stream');

    act(() => source?.emit('notification', notification('n-7', { title: 'Pushed' })));
    expect(await screen.findByRole('button', { name: 'Notifications, unseen notifications' })).toBeTruthy();

    act(() => source?.emit('unseen', { hasUnseen: false }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeTruthy();

    // Malformed events are ignored.
    act(() => source?.emit('notification', '{not json'));
    act(() => source?.emit('unseen', { hasUnseen: 'yes' }));
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Pushed')).toBeTruthy();
  });

  it('asks again for the team when a team notification arrives (someone waits for approval)', async () => {
    const teamFetches: string[] = [];
    function TeamProbe() {
      useSWR('/api/devices/d-1/team', (url: string) => {
        teamFetches.push(url);
        return Promise.resolve({ items: [] });
      });
      useSWR('/api/devices/d-1/cohorts', () => Promise.resolve({ items: [] }));
      return null;
    }
    renderWithProviders(
      <MemoryRouter>
        <NotificationBell />
        <TeamProbe />
      </MemoryRouter>,
    );
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    await waitFor(() => expect(teamFetches).toHaveLength(1));
    act(() => FakeEventSource.instances[0]?.emit('notification', notification('n-8', { kind: 'test' })));
    act(() => FakeEventSource.instances[0]?.emit('notification', notification('n-9', { kind: 'team.pending' })));
    await waitFor(() => expect(teamFetches).toHaveLength(2));
  });

  // Regression: with more requests at page load (e.g. the workspace switcher), the stream's events
  // may arrive while the first page is still in flight. They must not leave the bell without data.
  it('fetches again when the stream speaks before the first page has loaded, and shows the result', async () => {
    let answerFirst: (response: Response) => void = () => undefined;
    let calls = 0;
    fetchMock.mockImplementation((input) => {
      if (urlOf(input) !== '/api/notifications?limit=20') return Promise.resolve(jsonResponse(404, {}));
      calls += 1;
      if (calls === 1) return new Promise<Response>((resolve) => (answerFirst = resolve));
      return Promise.resolve(jsonResponse(200, pages['/api/notifications?limit=20']));
    });
    renderBell();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0];
    pages['/api/notifications?limit=20'] = {
      items: [notification('n-6', { title: 'Early' })],
      hasUnseen: true,
      nextBefore: null,
    };
    act(() => source?.emit('unseen', { hasUnseen: false }));
    act(() => source?.emit('notification', notification('n-6', { title: 'Early' })));
    // The first answer predates the event; it arrives last and is dropped in favour of the refetch.
    act(() => answerFirst(jsonResponse(200, { items: [], hasUnseen: false, nextBefore: null })));

    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, unseen notifications' }));
    expect(await screen.findByText('Early')).toBeTruthy();
    expect(calls).toBeGreaterThan(1);
  });

  it('marks a notification arriving while the panel is open as seen', async () => {
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    await screen.findByText('No notifications yet');
    act(() => FakeEventSource.instances[0]?.emit('notification', notification('n-8', { title: 'Live one' })));
    expect(await screen.findByText('Live one')).toBeTruthy();
    await waitFor(() => expect(seenCalls()).toHaveLength(1));
    expect(seenCalls()[0]?.[1]?.body).toBe(JSON.stringify({ ids: ['n-8'] }));
  });

  it('marks all seen when only older, unloaded notifications are unseen', async () => {
    pages['/api/notifications?limit=20'] = {
      items: [notification('n-5', { seenAt: '2026-11-20T10:00:00.000Z' })],
      hasUnseen: true,
      nextBefore: '2026-11-20T09:30:00.000Z',
    };
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, unseen notifications' }));
    await waitFor(() => expect(seenCalls()).toHaveLength(1));
    expect(seenCalls()[0]?.[1]?.body).toBe(JSON.stringify({ all: true }));
    expect(await screen.findByRole('button', { name: 'Notifications', hidden: true })).toBeTruthy();
  });

  it('closes the stream when unmounted', async () => {
    const { unmount } = renderBell();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    unmount();
    expect(FakeEventSource.instances[0]?.closed).toBe(true);
  });
});
