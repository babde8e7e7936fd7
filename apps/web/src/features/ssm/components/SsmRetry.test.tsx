import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ssm } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { readySsm } from '../../../../test/helpers/ssm';
import { SsmPage } from './SsmPage';

const deviceId = '5f0c0b8e-0000-4000-8000-0000000000d1';
const projectId = '5f0c0b8e-0000-4000-8000-0000000000b2';
const reason = 'The shape model could not be built. Please create it again or contact support.';
const failed: Ssm = {
  ...readySsm({ projectId }),
  status: 'failed',
  error: reason,
  readyAt: null,
  modes: null,
  quality: null,
  shapes: null,
  modelCard: null,
  landmarksFollowModes: null,
};
const building: Ssm = { ...failed, status: 'in_progress', error: null, progress: 0 };

const fetchMock = vi.fn<typeof fetch>();
let canEdit = true;
let refusal: { status: number; code: string; message: string } | null = null;
let current: Ssm = failed;
const posted: string[] = [];

function show() {
  renderWithProviders(
    <MemoryRouter initialEntries={[`/projects/ssm?ssm=${failed.id}&project=${projectId}&device=${deviceId}`]}>
      <Routes>
        <Route path="/projects/ssm" element={<SsmPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  canEdit = true;
  refusal = null;
  current = failed;
  posted.length = 0;
  fetchMock.mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith(`/ssms/${failed.id}/retry`) && init?.method === 'POST') {
      posted.push(url);
      if (refusal)
        return Promise.resolve(
          jsonResponse(refusal.status, { error: { code: refusal.code, message: refusal.message } }),
        );
      current = building;
      return Promise.resolve(jsonResponse(200, building));
    }
    if (url.endsWith(`/projects/${projectId}/ssms`))
      return Promise.resolve(jsonResponse(200, { items: [current], canEdit }));
    if (url.endsWith(`/ssms/${failed.id}`)) return Promise.resolve(jsonResponse(200, current));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('a failed SSM', () => {
  it('shows why it failed, and who may create models retries it: it is in progress again', async () => {
    show();
    expect(await screen.findByText(new RegExp(reason))).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/is in progress/)).toBeTruthy();
    expect(posted).toEqual([`/api/devices/${deviceId}/projects/${projectId}/ssms/${failed.id}/retry`]);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says in the server’s words why a retry was refused, and stays failed', async () => {
    refusal = {
      status: 422,
      code: 'cohort_not_in_project',
      message: 'A chosen patient cohort is not part of this project. Choose among the project’s cohorts.',
    };
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(refusal.message)).toBeTruthy();
    expect(screen.getByText(new RegExp(reason))).toBeTruthy();
  });

  it('offers no retry to who may not create models', async () => {
    canEdit = false;
    show();
    expect(await screen.findByText(/Someone who may create shape models in this project can retry it/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
