import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Project, ProjectList, ProjectOverview } from '@insilico/contracts';
import { jsonResponse, renderWithProviders, testSelectedDevice } from '../../../../test/helpers/renderWithProviders';
import { ProjectsOverviewPage } from './ProjectsOverviewPage';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const base = '/api/devices/d-1/projects';

function project(index: number, stage: Project['developmentStage'], overrides: Partial<Project> = {}): Project {
  return {
    id: `p-${stage}-${index}`,
    name: `Project ${index} ${stage}`,
    developmentStage: stage,
    status: 'active',
    question: null,
    cohorts: [{ id: 'c-1', name: 'Mitral adults', size: 20, status: 'ready' }],
    deviceVersions: [],
    team: [
      { id: 'u-1', name: 'Ada Lovelace', initials: 'AL', pictureUrl: null, role: 'admin' },
      { id: 'u-2', name: 'Bea Member', initials: 'BM', pictureUrl: null, role: 'member' },
      { id: 'u-3', name: 'Cy Guest', initials: 'CG', pictureUrl: null, role: 'guest' },
      { id: 'u-4', name: 'Di Member', initials: 'DM', pictureUrl: null, role: 'member' },
      { id: 'u-5', name: 'Ed Member', initials: 'EM', pictureUrl: null, role: 'member' },
    ],
    createdAt: '2026-11-20T09:30:00.000Z',
    statusChangedAt: null,
    canManage: true,
    canComment: true,
    ...overrides,
  };
}

const concept = Array.from({ length: 24 }, (_, index) => project(index, 'concept_and_design_feasibility'));
const overview: ProjectOverview = {
  groups: [
    { stage: 'concept_and_design_feasibility', total: 30, items: concept },
    { stage: 'animal_testing', total: 0, items: [] },
    {
      stage: 'clinical_trial',
      total: 1,
      items: [
        project(0, 'clinical_trial', {
          question: {
            id: 'q-1',
            question: 'Does it seal?',
            contextOfUse: null,
            modelInfluence: null,
            decisionConsequence: null,
            riskLevel: null,
          },
        }),
      ],
    },
  ],
  total: 31,
  canCreate: true,
};
const secondConceptPage: ProjectList = {
  items: Array.from({ length: 6 }, (_, index) => project(24 + index, 'concept_and_design_feasibility')),
  total: 30,
  stageCounts: { concept_and_design_feasibility: 30, animal_testing: 0, clinical_trial: 1 },
  canCreate: true,
};

const fetchMock = vi.fn<typeof fetch>();
const requests: string[] = [];
let overviewAnswer: () => Response;

beforeEach(() => {
  requests.length = 0;
  overviewAnswer = () => jsonResponse(200, overview);
  fetchMock.mockImplementation((input) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/api/me/selected-device')
      return Promise.resolve(jsonResponse(200, { device: testSelectedDevice }));
    if (url.pathname === `${base}/overview`) return Promise.resolve(overviewAnswer());
    if (url.pathname === base) return Promise.resolve(jsonResponse(200, secondConceptPage));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(path = '/projects/overview') {
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <ProjectsOverviewPage />
    </MemoryRouter>,
  );
}

describe('ProjectsOverviewPage', () => {
  it('draws each stage group from one request: counts, first cards, an empty group and the card contents', async () => {
    renderPage();
    const clinical = await screen.findByRole('region', { name: 'Clinical (1)' });
    expect(within(clinical).getByRole('heading', { level: 3, name: 'Project 0 clinical_trial' })).toBeTruthy();
    expect(within(clinical).getByText('Does it seal?')).toBeTruthy();
    expect(within(clinical).getByText('Active')).toBeTruthy();
    expect(within(clinical).getByText('20.11.2026')).toBeTruthy();
    // Five people, at most four avatars: three and "+2"; the group is named for screen readers.
    const team = within(clinical).getByRole('group', { name: /^Team: Ada Lovelace, Bea Member/ });
    expect(team.textContent).toBe('ALBMCG+2');
    expect(
      within(clinical)
        .getByRole('link', { name: /Project 0 clinical_trial/ })
        .getAttribute('href'),
    ).toBe('/projects/view/stats?project=p-clinical_trial-0');
    expect(screen.getByText('No active projects in this stage.')).toBeTruthy();
    const conceptGroup = screen.getByRole('region', { name: 'Concept (30)' });
    expect(within(conceptGroup).getAllByRole('heading', { level: 3 })).toHaveLength(24);
    expect(requests.filter((url) => url.startsWith(base))).toEqual([`${base}/overview?status=active`]);
    expect(screen.getByRole('link', { name: 'Create project' })).toBeTruthy();
  });

  it('loads a group’s next cards with Show more, by stage page', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Show 6 more of 6' }));
    const conceptGroup = screen.getByRole('region', { name: 'Concept (30)' });
    expect(await within(conceptGroup).findByRole('heading', { level: 3, name: /Project 29 / })).toBeTruthy();
    expect(within(conceptGroup).getAllByRole('heading', { level: 3 })).toHaveLength(30);
    expect(requests).toContain(`${base}?status=active&stage=concept_and_design_feasibility&limit=24&offset=24`);
    // Thirty projects fill two pages: the third is not asked for.
    expect(requests.some((url) => url.includes('offset=48'))).toBe(false);
    expect(screen.queryByRole('button', { name: /more of/ })).toBeNull();
  });

  it('asks again for another status, kept in the address', async () => {
    renderPage('/projects/overview?status=completed');
    await screen.findByRole('region', { name: 'Clinical (1)' });
    expect(requests).toContain(`${base}/overview?status=completed`);
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    await vi.waitFor(() => expect(requests).toContain(`${base}/overview`));
  });

  it('says when there are no projects, and shows the server’s message when the list fails', async () => {
    overviewAnswer = () => jsonResponse(200, { groups: [], total: 0, canCreate: false });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No active projects' })).toBeTruthy();
    expect(screen.getByText(/Ask a member of your device workspace to add you to one/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create project' })).toBeNull();
    cleanup();

    overviewAnswer = () =>
      jsonResponse(500, { error: { code: 'internal', message: 'The database is not answering.' } });
    renderPage();
    expect(await screen.findByText(/The database is not answering\./)).toBeTruthy();
  });
});
