import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  emptyProjectDraft,
  noPermissionMessage,
  projectTitleTakenMessage,
  projectTitleTooLongMessage,
  ssmTooFewCode,
  ssmTooFewMessage,
  type DraftSsm,
  type ProjectDraftState,
} from '@insilico/contracts';
import { UserContext } from '../../../app/user/userContext';
import { jsonResponse, renderWithProviders, testUser } from '../../../../test/helpers/renderWithProviders';
import { projectCreationRoutes } from '../routes';

// Whole MUI pages on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const summary = {
  deviceId: 'd-1',
  deviceName: 'Valve A',
  devicePicture: null,
  datetimeCreation: '2026-11-20T09:30:00.000Z',
  role: 'member',
  userStatus: 'ok',
  isAdmin: false,
} as const;

const device = {
  ...summary,
  deviceType: 'valve_replacement',
  deviceTypeOther: null,
  bodyParts: ['heart_and_thorax'],
  deviceDevPhase: ['concept_and_design_feasibility'],
  companyName: 'Cardio GmbH',
  country: 'DE',
  countryState: null,
  streetAddress: 'Hauptstraße 1',
  city: 'Berlin',
  zipCode: '10115',
  dataRegion: 'eu',
  dataRegionChangeable: true,
  deviceUsers: 2,
};

const fetchMock = vi.fn<typeof fetch>();
let savedDraft: ProjectDraftState | null;
let titleProblem: string | null;
let selected: typeof summary | (Omit<typeof summary, 'role'> & { role: 'guest' });
/** What POST …/project-draft/ssms answers: the SSM it adds, or a refusal. */
let draftSsmAnswer: { ssm: DraftSsm } | { status: number; code: string; message: string };
const draftSsmBodies: unknown[] = [];

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

beforeEach(() => {
  savedDraft = null;
  titleProblem = null;
  selected = summary;
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input, init) => {
    const url = urlOf(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/me/selected-device') return jsonResponse(200, { device: selected });
    if (url === '/api/devices/d-1') return jsonResponse(200, device);
    if (url === '/api/devices/d-1/project-draft' && method === 'GET')
      return jsonResponse(200, { state: savedDraft, updatedAt: savedDraft ? '2026-11-21T10:00:00.000Z' : null });
    if (url === '/api/devices/d-1/project-draft' && method === 'PUT') {
      savedDraft = JSON.parse(String(init?.body)) as ProjectDraftState;
      return jsonResponse(200, { state: savedDraft, updatedAt: '2026-11-21T10:00:01.000Z' });
    }
    if (url === '/api/devices/d-1/project-draft/ssms' && method === 'POST') {
      draftSsmBodies.push(JSON.parse(String(init?.body)));
      if (!('ssm' in draftSsmAnswer))
        return jsonResponse(draftSsmAnswer.status, {
          error: { code: draftSsmAnswer.code, message: draftSsmAnswer.message },
        });
      savedDraft = { ...savedDraft!, newSsm: null, ssms: [...savedDraft!.ssms, draftSsmAnswer.ssm] };
      return jsonResponse(200, { state: savedDraft, updatedAt: '2026-11-21T10:00:02.000Z' });
    }
    if (url.startsWith('/api/devices/d-1/project-title-check')) return jsonResponse(200, { problem: titleProblem });
    if (url === '/api/devices/d-1/cohorts') return jsonResponse(200, { items: [] });
    if (url === '/api/devices/d-1/questions-of-interest') return jsonResponse(200, { items: [] });
    return jsonResponse(404, { error: { code: 'not_found', message: `unexpected ${method} ${url}` } });
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  const router = createMemoryRouter(projectCreationRoutes, { initialEntries: [path] });
  renderWithProviders(
    <UserContext.Provider
      value={{ user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => {} }}
    >
      <RouterProvider router={router} />
    </UserContext.Provider>,
  );
  return router;
}

describe('the project creation wizard', () => {
  it('continues at the step its saved draft is on', async () => {
    savedDraft = { ...emptyProjectDraft(), step: 3, title: 'Saved study' };
    const router = renderAt('/projects/create');
    expect(await screen.findByRole('heading', { name: 'Question of interest', level: 2 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/projects/create/question-of-interest');
  });

  it('says the title rule while typing, asks the server, then saves the step and moves on', async () => {
    const router = renderAt('/projects/create/title');
    const title = await screen.findByRole('textbox', { name: 'Project title' });
    fireEvent.change(title, { target: { value: 'x'.repeat(51) } });
    expect(screen.getByText(projectTitleTooLongMessage)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(false);

    fireEvent.change(title, { target: { value: '  Mitral study ' } });
    expect(screen.queryByText(projectTitleTooLongMessage)).toBeNull();
    // The workspace's only stage is chosen already.
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Concept and design feasibility' }).checked).toBe(true);

    titleProblem = projectTitleTakenMessage;
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(projectTitleTakenMessage)).toBeTruthy();
    expect(savedDraft).toBeNull();

    titleProblem = null;
    fireEvent.change(title, { target: { value: 'Mitral study 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/create/patient-cohort-list'));
    expect(savedDraft).toMatchObject({
      step: 2,
      title: 'Mitral study 2',
      developmentStage: 'concept_and_design_feasibility',
    });
  });

  it('asks before leaving with unsaved progress, and Stay keeps it', async () => {
    const router = renderAt('/projects/create/title');
    const title = await screen.findByRole('textbox', { name: 'Project title' });
    fireEvent.change(title, { target: { value: 'Unsaved' } });
    void router.navigate('/projects/create/team');
    expect(
      await screen.findByText('Are you sure you want to leave the page? Your progress will be lost.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/projects/create/title');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Project title' }).value).toBe('Unsaved');
  });

  it('adds an SSM to the draft from its Name step: too few patients opens the dialog, a checked one is listed', async () => {
    const cohortId = '22222222-2222-4222-8222-222222222222';
    savedDraft = {
      ...emptyProjectDraft(),
      step: 2,
      title: 'With an SSM',
      existingCohortSelected: [cohortId],
      newSsm: { cohortIds: [cohortId], excludedPatients: [], organs: ['aortic_root'], phase: 'end-systole', name: '' },
    };
    draftSsmAnswer = { status: 422, code: ssmTooFewCode, message: ssmTooFewMessage(5) };
    const router = renderAt('/projects/create/new-ssm-name-configuration');
    const name = await screen.findByRole('textbox', { name: 'SSM name (optional)' });
    // Inside the wizard: its stepper is on the cohort step, the SSM's own on Name.
    expect(screen.getByRole('heading', { name: 'New statistical shape model', level: 2 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add the SSM' }));
    expect((await screen.findByRole('dialog')).textContent).toContain(ssmTooFewMessage(5));
    fireEvent.click(screen.getByRole('button', { name: 'Change patients' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    draftSsmAnswer = {
      ssm: {
        cohortIds: [cohortId],
        excludedPatients: [],
        organs: ['aortic_root'],
        phase: 'end-systole',
        name: 'Roots at ES',
        shapeCount: 12,
      },
    };
    fireEvent.change(name, { target: { value: 'Roots at ES' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the SSM' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects/create/new-ssm-complete'));
    expect(await screen.findByText(/Roots at ES is added to the project/)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'SSMs of the new project' }).textContent).toContain('12 patients');
    expect(draftSsmBodies.at(-1)).toEqual({
      cohortIds: [cohortId],
      excludedPatients: [],
      organs: ['aortic_root'],
      phase: 'end-systole',
      name: 'Roots at ES',
    });
    // The draft as the server answered it was saved with the step.
    expect(savedDraft).toMatchObject({ step: 2, newSsm: null, ssms: [{ name: 'Roots at ES' }] });
  });

  it('tells a guest they cannot create projects (spec §6)', async () => {
    selected = { ...summary, role: 'guest' };
    renderAt('/projects/create/title');
    expect(await screen.findByText(noPermissionMessage)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Project title' })).toBeNull();
  });
});
