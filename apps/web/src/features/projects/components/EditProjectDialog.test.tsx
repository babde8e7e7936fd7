import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { projectTitleTakenMessage, projectTitleTooLongMessage, type Project } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { EditProjectDialog } from './EditProjectDialog';

const deviceId = '00000000-0000-4000-8000-000000000001';
const project: Project = {
  id: 'p-1',
  name: 'Mitral study',
  developmentStage: 'clinical_trial',
  status: 'active',
  question: {
    id: 'q-1',
    question: 'Does it seal?',
    contextOfUse: null,
    modelInfluence: null,
    decisionConsequence: null,
    riskLevel: null,
  },
  cohorts: [{ id: 'c-1', name: 'Adults', size: 5, status: 'ready' }],
  deviceVersions: [],
  team: [],
  createdAt: '2026-11-01T10:00:00.000Z',
  statusChangedAt: null,
  canManage: true,
  canComment: true,
};
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'PATCH')
      return Promise.resolve(
        jsonResponse(409, { error: { code: 'project_title_taken', message: projectTitleTakenMessage } }),
      );
    if (url.endsWith('/questions-of-interest')) return Promise.resolve(jsonResponse(200, { items: [] }));
    if (url.endsWith('/cohorts')) return Promise.resolve(jsonResponse(200, { items: [] }));
    if (url.includes('/device-versions'))
      return Promise.resolve(jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 }));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('EditProjectDialog', () => {
  it('checks the title with the wizard rule and shows the server refusal', async () => {
    renderWithProviders(<EditProjectDialog deviceId={deviceId} project={project} open onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Edit project' });
    const title = within(dialog).getByRole('textbox', { name: /Project title/ });
    fireEvent.change(title, { target: { value: 'x'.repeat(51) } });
    expect(within(dialog).getByText(projectTitleTooLongMessage)).toBeTruthy();
    fireEvent.change(title, { target: { value: 'Other study' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save title and question' }));
    await waitFor(() => expect(within(dialog).getByText(projectTitleTakenMessage)).toBeTruthy());
    expect(within(dialog).getByRole('list', { name: 'Patient cohorts of the project' })).toBeTruthy();
  });
});
