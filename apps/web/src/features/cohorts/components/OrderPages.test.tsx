import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { roleRefusalMessages } from '@insilico/contracts';
import { jsonResponse, renderWithProviders, testSelectedDevice } from '../../../../test/helpers/renderWithProviders';
import { CohortListPage } from './CohortListPage';
import { CreateCohortPage } from './OrderPages';

configure({ asyncUtilTimeout: 5000 });

const requests: string[] = [];
let role: 'guest' | 'member' = 'guest';

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://x',
      );
      requests.push(url.pathname);
      const device = { ...testSelectedDevice, role, isAdmin: false };
      if (url.pathname === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device }));
      if (url.pathname === '/api/devices') return Promise.resolve(jsonResponse(200, { items: [device] }));
      if (url.pathname === '/api/devices/d-1/cohorts') return Promise.resolve(jsonResponse(200, { items: [] }));
      return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('cohort pages and roles', () => {
  it('tells a guest at the top of the order page that they cannot order, and shows no form', async () => {
    role = 'guest';
    renderWithProviders(
      <MemoryRouter>
        <CreateCohortPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText(roleRefusalMessages.cohortOrder)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /next/i })).toBeNull();
    // Nothing of the form was asked for: no live count for a user who cannot order.
    expect(requests.some((path) => path.includes('/count'))).toBe(false);
  });

  it('offers no "Order a cohort" button to a guest, and offers it to a member', async () => {
    role = 'guest';
    renderWithProviders(
      <MemoryRouter>
        <CohortListPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Cohorts of the projects you are on appear here.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Order a cohort' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Measurements' })).toBeNull();
    cleanup();

    role = 'member';
    renderWithProviders(
      <MemoryRouter>
        <CohortListPage />
      </MemoryRouter>,
    );
    expect((await screen.findAllByRole('link', { name: 'Order a cohort' })).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Measurements' }).getAttribute('href')).toBe(
      '/measurement/select-patient-cohort',
    );
  });
});
