import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ssm } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { readySsm } from '../../../../test/helpers/ssm';
import { SsmVersionNotice } from './SsmPage';

const deviceId = '5f0c0b8e-0000-4000-8000-0000000000d1';
const projectId = '5f0c0b8e-0000-4000-8000-0000000000b2';
const older = readySsm({ projectId, landmarksFollowModes: false });
const rebuilt: Ssm = {
  ...older,
  id: '5f0c0b8e-0000-4000-8000-000000000002',
  status: 'in_progress',
  progress: 0,
  readyAt: null,
  version: 2,
  rebuiltFrom: { id: older.id, version: 1 },
  landmarksFollowModes: null,
};

const fetchMock = vi.fn<typeof fetch>();
let canEdit = true;
const posted: string[] = [];

function Where() {
  const location = useLocation();
  return <span data-testid="where">{location.search}</span>;
}

function show(ssm: Ssm) {
  renderWithProviders(
    <MemoryRouter initialEntries={['/projects/ssm']}>
      <Routes>
        <Route
          path="/projects/ssm"
          element={
            <>
              <SsmVersionNotice deviceId={deviceId} projectId={projectId} ssm={ssm} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  canEdit = true;
  posted.length = 0;
  fetchMock.mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith(`/projects/${projectId}/ssms`))
      return Promise.resolve(jsonResponse(200, { items: [older], canEdit }));
    if (url.endsWith(`/ssms/${older.id}/rebuild`) && init?.method === 'POST') {
      posted.push(url);
      return Promise.resolve(jsonResponse(201, rebuilt));
    }
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('an SSM among its versions', () => {
  it('built before its landmarks moved: says why, and who may rebuilds it as the next version, then opens it', async () => {
    show(older);
    expect(await screen.findByText(/its shapes cannot be measured/)).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Rebuild as version 2' }));
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toContain(`ssm=${rebuilt.id}`));
    expect(posted).toEqual([`/api/devices/${deviceId}/projects/${projectId}/ssms/${older.id}/rebuild`]);
  });

  it('offers no rebuild to who may not create models', async () => {
    canEdit = false;
    show(older);
    expect(await screen.findByText(/Someone who may create shape models in this project can rebuild it/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Rebuild/ })).toBeNull();
  });

  it('rebuilt: links to its rebuild and says this version stays; the rebuild links back', async () => {
    show({ ...older, rebuiltAs: { id: rebuilt.id, version: 2, status: 'in_progress' } });
    const open = await screen.findByRole('link', { name: 'Open version 2' });
    expect(open.getAttribute('href')).toContain(`ssm=${rebuilt.id}`);
    expect(screen.getByText(/This version, its rooms and the results made on it stay as they are/)).toBeTruthy();
    cleanup();
    show(rebuilt);
    expect((await screen.findByRole('link', { name: 'version 1' })).getAttribute('href')).toContain(`ssm=${older.id}`);
  });
});
