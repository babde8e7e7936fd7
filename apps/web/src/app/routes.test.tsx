import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
// RouterProvider from 'react-router', not 'react-router/dom': under Node 20 vitest would load the
// latter as CommonJS, a second copy of the router context.
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import {
  jsonResponse,
  renderWithProviders,
  testSelectedDevice,
  testUser,
} from '../../test/helpers/renderWithProviders';
import { appRoutes } from './routes';
import { UserProvider } from './user/UserProvider';

// Spec §2, written out by hand: the router must register every one of these.
const specRoutes = [
  '/',
  '/devices/setup',
  '/activity-feed',
  '/design-history',
  '/onboarding/no-access',
  '/onboarding/body-part',
  '/onboarding/development-phase',
  '/onboarding/device-details',
  '/onboarding/your-company',
  '/onboarding/your-team',
  '/onboarding/complete',
  '/patient-cohort/create',
  '/patient-cohort/order-patient',
  '/measurement/select-patient-cohort',
  '/measurement/define',
  '/measurement/order',
  '/projects/overview',
  '/projects/room/analyses',
  '/projects/view/stats',
  '/projects/view/rooms',
  '/projects/view/comments',
  ...[
    'title',
    'previous-project-list',
    'patient-cohort-list',
    'previous-patient-cohort-list',
    'new-patient-cohort',
    'new-ssm-select-patient-cohorts',
    'new-ssm-select-organ-phase',
    'new-ssm-name-configuration',
    'new-ssm-complete',
    'question-of-interest',
    'new-question-of-interest',
    'device-version',
    'new-device-version',
    'team',
    'select-upload-new-cohort-data-type',
    'upload-imaging-data',
    'upload-data-directory',
    'our-database',
    'anonymize-data',
  ].map((step) => `/projects/create/${step}`),
  '/my-account',
  '/manage-device',
  '/help',
  '/manage-team',
  '/company-info',
  '/subscriptions',
  '/add-device',
  '/add-device/create-new',
  '/add-device/development-stage',
  '/add-device/device-details',
  '/add-device/your-team',
  '/population-analysis/overview',
  '/upload-images',
  '/upload-images/upload',
  '/upload-images/success',
  '/upload-images/anonymize-data',
  '/upload-images/upload-anonymized-data',
  '/upload-images/upload-dicom-images',
] as const;

function leafOf(path: string) {
  const matches = matchRoutes(appRoutes, path);
  return matches?.[matches.length - 1]?.route;
}

const fetchMock = vi.fn<typeof fetch>();

const projectBody = {
  id: 'p-1',
  name: 'Valve sizing',
  developmentStage: 'concept_and_design_feasibility',
  status: 'active',
  question: null,
  cohorts: [],
  deviceVersions: [],
  team: [],
  createdAt: '2026-03-05T12:00:00.000Z',
  statusChangedAt: null,
  canManage: true,
  canComment: true,
};
/** What the project call answers in the project view tests. */
let project: { status: number; body: unknown } = { status: 404, body: { error: { code: 'not_found', message: 'x' } } };

function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  renderWithProviders(
    <UserProvider>
      <RouterProvider router={router} />
    </UserProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation((input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('/api/auth/me')) return Promise.resolve(jsonResponse(200, testUser));
    if (url === '/api/me/profile') {
      const { email, fullName, jobTitle, pictureUrl } = testUser;
      return Promise.resolve(jsonResponse(200, { email, fullName, jobTitle, pictureUrl }));
    }
    if (url === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device: testSelectedDevice }));
    if (url === '/api/devices/d-1/projects/p-1') return Promise.resolve(jsonResponse(project.status, project.body));
    if (url === '/api/devices/d-2/projects/p-2')
      return Promise.resolve(jsonResponse(200, { ...projectBody, id: 'p-2', name: 'Other workspace project' }));
    if (url.startsWith('/api/notifications'))
      return Promise.resolve(jsonResponse(200, { items: [], hasUnseen: false, nextBefore: null }));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('app routes', () => {
  it('lists the 58 routes of spec §2', () => {
    expect(new Set(specRoutes).size).toBe(specRoutes.length);
    expect(specRoutes).toHaveLength(58);
  });

  it.each(specRoutes)('registers %s with its own page, not the 404', (path) => {
    const leaf = leafOf(path);
    expect(leaf).toBeDefined();
    expect(leaf?.path).not.toBe('*');
    expect(leaf?.element ?? leaf?.Component ?? leaf?.lazy).toBeTruthy();
  });

  it('sends unknown paths to the 404 page', () => {
    expect(leafOf('/no/such/page')?.path).toBe('*');
    expect(leafOf('/projects/nope')?.path).toBe('*');
    expect(leafOf('/onboarding')?.path).toBe('*');
  });

  it('puts every route behind the protected shell', () => {
    for (const path of [...specRoutes, '/no/such/page']) {
      expect(matchRoutes(appRoutes, path)?.[0]?.route).toBe(appRoutes[0]);
    }
  });

  it('renders a page with its title, the shell and an honest state', async () => {
    renderAt('/design-history?since=week');
    expect(await screen.findByRole('heading', { level: 1, name: 'Design history' })).toBeTruthy();
    // The design history call answers 404 here: the page says so instead of an empty history.
    expect(await screen.findByText(/could not be loaded\. Not found/)).toBeTruthy();
    expect(screen.getAllByRole('navigation', { name: 'Main' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Design history', current: 'page' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Account and settings' })).toBeTruthy();
    expect(document.title).toBe('Design history · InSilico Workspace');
  });

  it('renders the project view with its three tabs', async () => {
    project = { status: 200, body: projectBody };
    renderAt('/projects/view/rooms?project=p-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Valve sizing' })).toBeTruthy();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Stats', 'Rooms', 'Comments']);
    expect(screen.getByRole('tab', { name: 'Rooms' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Comments' }).getAttribute('href')).toBe(
      '/projects/view/comments?project=p-1',
    );
  });

  it('opens a project of the workspace its link names (a notification’s), and its tabs keep that workspace', async () => {
    renderAt('/projects/view/rooms?project=p-2&device=d-2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Other workspace project' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Stats' }).getAttribute('href')).toBe(
      '/projects/view/stats?project=p-2&device=d-2',
    );
  });

  it('shows the server’s message for a project the user may not see, without the tabs', async () => {
    const message =
      'You do not have permission to access this project. Contact your device company admin to check whether you have been added to this device or project.';
    project = { status: 403, body: { error: { code: 'forbidden', message } } };
    renderAt('/projects/view/stats?project=p-1');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryAllByRole('tab')).toEqual([]);
  });

  it('renders the 404 page inside the shell', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/no/such/page')).toBeTruthy();
  });

  it('shows the signed-in profile on My account, dates as DD.MM.YYYY', async () => {
    renderAt('/my-account');
    expect(await screen.findByRole('heading', { level: 1, name: 'My account' })).toBeTruthy();
    const email = await screen.findByRole<HTMLInputElement>('textbox', { name: 'E-mail' });
    expect(email.value).toBe('ada@example.com');
    expect(screen.getByText('Member since 05.03.2026')).toBeTruthy();
  });
});
