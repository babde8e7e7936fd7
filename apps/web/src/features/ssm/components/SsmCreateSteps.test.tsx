import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ssmDuplicateMessage, ssmTooFewCode, ssmTooFewMessage } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { saveSsmDraft, emptySsmDraft } from '../ssmDraft';
import { SsmNameStep } from './SsmCreateSteps';

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
