import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { AnalyticsEventList, AnalyticsReport } from '@insilico/contracts/analytics';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { AnalyticsPage } from './AnalyticsPage';
import { niceMax, periodDays } from './DailyEventsChart';

const report: AnalyticsReport = {
  from: '2026-11-22',
  to: '2026-11-28',
  days: [
    { day: '2026-11-26', activeUsers: 2, events: { 'page viewed': 5, 'project created': 1 } },
    { day: '2026-11-28', activeUsers: 1, events: { 'simulation completed': 1 } },
  ],
  funnel: [
    { step: 'workspace created', users: 4 },
    { step: 'project created', users: 2 },
    { step: 'room opened', users: 1 },
    { step: 'simulation started', users: 1 },
    { step: 'simulation completed', users: 1 },
  ],
  features: [
    { eventType: 'page viewed', events: 5, users: 2 },
    { eventType: 'project created', events: 1, users: 1 },
    { eventType: 'simulation completed', events: 1, users: 1 },
  ],
};

function listed(id: number, eventType = 'page viewed'): AnalyticsEventList['items'][number] {
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    eventType,
    userEmail: 'ada@example.com',
    deviceId: 'device-1',
    sessionId: 1,
    properties: { route: '/projects' },
    occurredAt: '2026-11-28T09:30:00.000Z',
    receivedAt: '2026-11-28T09:30:01.000Z',
  };
}

let answers: Record<string, { status: number; body: unknown }>;
const requested: string[] = [];

function renderPage(path = '/analytics') {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/analytics" element={<AnalyticsPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  requested.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://x',
      );
      requested.push(url.pathname + url.search);
      const answer = answers[url.pathname + url.search];
      if (answer) return Promise.resolve(jsonResponse(answer.status, answer.body));
      return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the product analytics page', () => {
  it('shows the chart, the funnel and the features, pages the events and filters them by type', async () => {
    answers = {
      '/api/analytics/report?days=30': { status: 200, body: report },
      '/api/analytics/events?limit=25': { status: 200, body: { items: [listed(2), listed(1)], next: 'c1' } },
      '/api/analytics/events?limit=25&before=c1': { status: 200, body: { items: [listed(0)], next: null } },
      '/api/analytics/events?limit=25&eventType=project+created': {
        status: 200,
        body: { items: [listed(5, 'project created')], next: null },
      },
    };
    renderPage();
    expect(
      await screen.findByRole('img', { name: /Events per day from 2026-11-22 to 2026-11-28: 7 events/ }),
    ).toBeTruthy();
    const funnel = screen.getByRole('table', { name: 'Funnel' });
    expect(within(funnel).getByRole('progressbar', { name: 'simulation completed: 25 %' })).toBeTruthy();
    const features = screen.getByRole('table', { name: 'Events per feature' });
    expect(within(features).getAllByRole('row')).toHaveLength(4);

    const events = await screen.findByRole('table', { name: 'Received events' });
    expect(within(events).getAllByRole('row')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Show older events' }));
    await waitFor(() => expect(within(events).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Show older events' })).toBeNull();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Event' }));
    fireEvent.click(await screen.findByRole('option', { name: 'project created' }));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Received events' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(requested).toContain('/api/analytics/events?limit=25&eventType=project+created');
  });

  it('asks for another period from the address', async () => {
    answers = {
      '/api/analytics/report?days=7': { status: 200, body: { ...report, days: [], features: [] } },
      '/api/analytics/events?limit=25': { status: 200, body: { items: [], next: null } },
    };
    renderPage('/analytics?days=7');
    expect(await screen.findAllByText('No events in this period.')).toHaveLength(2);
    expect(await screen.findByText('No events were received yet.')).toBeTruthy();
  });

  it('says the page is for operators when the server refuses (403), and offers a retry after another failure', async () => {
    answers = {
      '/api/analytics/report?days=30': {
        status: 403,
        body: { error: { code: 'forbidden', message: 'The product analytics are for operators only.' } },
      },
    };
    renderPage();
    expect(await screen.findByText('The product analytics are for operators only.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(requested.some((path) => path.startsWith('/api/analytics/events'))).toBe(false);
  });

  it('shows a loading state, then an error with a retry that loads the report', async () => {
    answers = {
      '/api/analytics/report?days=30': {
        status: 500,
        body: { error: { code: 'internal', message: 'Database down.' } },
      },
      '/api/analytics/events?limit=25': { status: 200, body: { items: [listed(1)], next: null } },
    };
    renderPage();
    expect(screen.getByRole('status').textContent).toContain('Loading the analytics…');
    expect(await screen.findByText(/The analytics could not be loaded\. Database down\./)).toBeTruthy();
    answers['/api/analytics/report?days=30'] = { status: 200, body: report };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Funnel' })).toBeTruthy();
  });
});

describe('the chart’s axis', () => {
  it('lists every day of the period and rounds the top to 1, 2 or 5 times a power of ten', () => {
    expect(periodDays('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect([0, 1, 3, 7, 10, 11, 26, 600].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 50, 1000]);
  });
});
