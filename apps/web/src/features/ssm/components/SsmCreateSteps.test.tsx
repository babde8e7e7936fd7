import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ssmDuplicateMessage, ssmTooFewCode, ssmTooFewMessage, type ImagingCohort } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { SsmFlowHostContext, type SsmFlowHost } from '../flowHost';
import { saveSsmDraft, emptySsmDraft, type SsmDraft } from '../ssmDraft';
import { projectCohortChoices, SsmNameStep, SsmPatientsStep, SsmStatus } from './SsmCreateSteps';

const fetchMock = vi.fn<typeof fetch>();
const project = '11111111-1111-4111-8111-111111111111';
const cohort = '22222222-2222-4222-8222-222222222222';

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

/** The creation call answers `answer()`; anything else (the project) 404. */
function answerCreate(answer: () => Response) {
  fetchMock.mockImplementation((_input, init) =>
    Promise.resolve(
      init?.method === 'POST' ? answer() : jsonResponse(404, { error: { code: 'not_found', message: 'No project.' } }),
    ),
  );
}

function renderNameStep() {
  renderWithProviders(
    <MemoryRouter initialEntries={[`/projects/create/new-ssm-name-configuration?project=${project}&device=d-1`]}>
      <Routes>
        <Route path="/projects/create/new-ssm-name-configuration" element={<SsmNameStep />} />
        <Route path="*" element={<Where />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  sessionStorage.clear();
  saveSsmDraft(sessionStorage, project, { ...emptySsmDraft, cohortIds: [cohort] });
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('SSM creation, Name step', () => {
  it('shows the too-few dialog with a way to reach support', async () => {
    answerCreate(() =>
      jsonResponse(422, { error: { code: ssmTooFewCode, message: ssmTooFewMessage(5), details: { shapes: 5 } } }),
    );
    renderNameStep();
    fireEvent.click(screen.getByRole('button', { name: 'Create SSM' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(ssmTooFewMessage(5));
    fireEvent.click(screen.getByRole('button', { name: 'Contact support' }));
    await waitFor(() => expect(screen.getAllByTestId('where')[0]!.textContent).toContain('drawer=ask-support'));
    // The configuration sent: the draft's cohort, no name (the server names it).
    const [, init] = fetchMock.mock.calls.find(([, call]) => call?.method === 'POST')!;
    expect(JSON.parse(String(init?.body))).toEqual({
      cohortIds: [cohort],
      excludedPatients: [],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
  });

  it('shows the duplicate refusal in the spec’s words and stays on the step', async () => {
    answerCreate(() => jsonResponse(409, { error: { code: 'ssm_exists', message: ssmDuplicateMessage } }));
    renderNameStep();
    fireEvent.click(screen.getByRole('button', { name: 'Create SSM' }));
    expect(await screen.findByText(ssmDuplicateMessage)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('SSM creation, Patients step, cohorts still being ordered (issue 18)', () => {
  const ordered = '33333333-3333-4333-8333-333333333333';
  /** The step in a host (the wizard's when `waitForCohorts`), its draft kept in the test. */
  function renderPatients(waitForCohorts: boolean, extra: SsmFlowHost['cohorts']['items'] = []) {
    let draft: SsmDraft = emptySsmDraft;
    fetchMock.mockImplementation(() =>
      Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'x' } })),
    );
    const host = (): SsmFlowHost => ({
      deviceId: 'd-1',
      draft,
      setDraft: (update) => {
        draft = update(draft);
        view.rerender(wrap(host()));
      },
      cohorts: {
        items: [
          { id: cohort, name: 'Ready ones', size: 10, status: 'ready' },
          { id: ordered, name: 'Being ordered', size: 20, status: 'in_progress' },
          ...(extra ?? []),
        ],
        error: undefined,
        empty: 'None.',
      },
      go: () => undefined,
      create: () => Promise.resolve(),
      createLabel: 'Add the SSM',
      waitForCohorts,
      embedded: true,
      busy: false,
    });
    const wrap = (value: SsmFlowHost) => (
      <MemoryRouter>
        <SsmFlowHostContext.Provider value={value}>
          <SsmPatientsStep />
        </SsmFlowHostContext.Provider>
      </MemoryRouter>
    );
    const view = renderWithProviders(wrap(host()));
    return { draft: () => draft };
  }

  it('lets the wizard choose a cohort being ordered: the SSM waits for it, built from all its patients', () => {
    const step = renderPatients(true);
    const box = screen.getByRole('checkbox', { name: 'Being ordered (20 patients, in progress)' });
    expect((box as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(box);
    expect(step.draft().cohortIds).toEqual([ordered]);
    expect(screen.getByText(/The SSM waits for this cohort and is built once it is ready/)).toBeTruthy();
    expect(screen.getByTestId('ssm-kept-patients').textContent).toBe(
      '0 patients chosen, and the patients of Being ordered once it is ready',
    );
  });

  it('keeps a cohort being ordered out of reach on a project’s page', () => {
    renderPatients(false);
    const box = screen.getByRole('checkbox', { name: 'Being ordered (20 patients, in progress)' });
    expect((box as HTMLInputElement).disabled).toBe(true);
  });

  it('offers a ready imaging cohort as the user’s own imaging, its delivered patients to tick off', () => {
    const imaging = '44444444-4444-4444-8444-444444444444';
    const step = renderPatients(false, [
      { id: imaging, name: 'Our CTs', size: 2, status: 'ready', imagingPatients: ['P01', 'P02'] },
    ]);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Our CTs (2 patients), your own imaging' }));
    expect(screen.getByText(/Patients of your own imaging \(not synthetic\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'P02' }));
    expect(step.draft()).toMatchObject({ cohortIds: [imaging], excludedPatients: ['P02'] });
    expect(screen.getByTestId('ssm-kept-patients').textContent).toBe('1 patients chosen');
  });

  it('says what a waiting SSM waits for', () => {
    renderWithProviders(
      <SsmStatus
        ssm={{
          name: 'Roots model',
          status: 'in_progress',
          progress: 0,
          progressMessage: null,
          waitingFor: [{ name: 'Being ordered' }],
          error: null,
          shapeCount: 20,
        }}
      />,
    );
    expect(screen.getByRole('status').textContent).toContain(
      'Roots model is waiting for the patient cohort Being ordered to be ready: it is built then.',
    );
  });
});

describe('the cohorts a project offers a model', () => {
  it('lists the virtual cohorts, then the ready imaging cohorts with their patients; nothing until the project is read', () => {
    const virtual = [{ id: cohort, name: 'Virtual', size: 10, status: 'ready' }];
    const patient = (id: string) => ({ id }) as ImagingCohort['patients'][number];
    const imaging: ImagingCohort[] = [
      { datasetId: 'ds-1', name: 'Our CTs', status: 'ready', patients: [patient('P01')] },
      { datasetId: 'ds-2', name: 'New CTs', status: 'modelling', patients: [] },
    ];
    expect(projectCohortChoices(undefined, imaging)).toBeUndefined();
    expect(projectCohortChoices(virtual, imaging)).toEqual([
      ...virtual,
      { id: 'ds-1', name: 'Our CTs', size: 1, status: 'ready', imagingPatients: ['P01'] },
    ]);
  });
});
