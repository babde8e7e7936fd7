import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Room } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { CreateRoomDialog } from './CreateRoomDialog';

let fetchMock: ReturnType<typeof stubApi>;
const projectId = '11111111-1111-4111-8111-111111111111';
const ssmId = '33333333-3333-4333-8333-333333333333';

const ssm = (id: string, name: string, status: string) => ({
  id,
  projectId,
  name,
  configuration: {
    cohortIds: ['22222222-2222-4222-8222-222222222222'],
    excludedPatients: [],
    organs: ['aortic_root'],
    phase: 'end-diastole',
  },
  shapeCount: 20,
  status,
  progress: status === 'ready' ? 1 : 0.3,
  progressMessage: null,
  error: null,
  createdBy: null,
  createdAt: '2026-03-05T12:00:00.000Z',
  readyAt: null,
  modes: status === 'ready' ? [{ variance: 4, explained: 1 }] : null,
  quality: null,
  shapes: null,
  modelCard: null,
});

const datasetId = '66666666-6666-4666-8666-666666666666';
const imagingPatient = (id: string) => ({
  id,
  source: 'imaging',
  datasetId,
  datasetName: 'Own CT',
  projectId,
  meshes: { phases: ['end-diastole'], organs: ['aortic_root'] },
  models: [{ organ: 'aortic_root', phase: 'end-diastole', triangles: 12, volume_mm3: 1000 }],
  landmarks: [],
  parameters: [],
});

const room: Room = {
  id: '44444444-4444-4444-8444-444444444444',
  projectId,
  name: 'Roots room',
  subject: { kind: 'ssm', ssmId },
  hasSimulation: false,
  placementCount: 0,
  screenshotCount: 0,
  latestScreenshot: null,
  sharedWith: [],
  createdBy: { id: 'u-1', name: 'Ada Lovelace' },
  createdAt: '2026-11-20T09:30:00.000Z',
  updatedAt: '2026-11-20T09:30:00.000Z',
};

beforeEach(() => {
  fetchMock = stubApi((url, init) => {
    if (url.pathname.endsWith('/ssms'))
      return jsonResponse(200, {
        items: [ssm(ssmId, 'Roots', 'ready'), ssm('55555555-5555-4555-8555-555555555555', 'Building', 'in_progress')],
        canEdit: true,
      });
    if (url.pathname.endsWith('/imaging-cohorts'))
      return jsonResponse(200, {
        items: [
          { datasetId, name: 'Own CT', status: 'ready', patients: [imagingPatient('P1a2b3c4d5e6f')] },
          { datasetId: '77777777-7777-4777-8777-777777777777', name: 'Later CT', status: 'modelling', patients: [] },
        ],
      });
    if (url.pathname.endsWith('/rooms') && init?.method === 'POST') return jsonResponse(201, room);
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The dialog on a project without virtual cohorts; answers the spy its onCreated calls. */
function openDialog() {
  const onCreated = vi.fn();
  renderWithProviders(
    <CreateRoomDialog
      open
      deviceId="d-1"
      projectId={projectId}
      cohorts={[]}
      onClose={() => {}}
      onCreated={onCreated}
    />,
  );
  return onCreated;
}

describe('New room on an SSM', () => {
  it('lists the ready SSMs and creates the room on the chosen one', async () => {
    const onCreated = openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'An SSM' }));
    fireEvent.click(await screen.findByText('Roots'));
    expect(screen.queryByText('Building')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create room' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(room));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toEqual({ ssmId });
  });
});

describe('New room on a patient of your imaging data', () => {
  it('lists the imaging cohorts with their patients, labelled as your data, and creates the room', async () => {
    const onCreated = openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Your imaging data' }));
    const patients = await screen.findByRole('list', { name: 'Imaging patients' });
    expect(patients.textContent).toContain('Later CT (patient models being made)');
    expect(screen.getByText('Your imaging data', { selector: '.MuiChip-label' })).toBeTruthy();
    // Nothing of the user's own data is presented as synthetic.
    expect(screen.queryByText('Synthetic')).toBeNull();
    fireEvent.click(screen.getByText('P1a2b3c4d5e6f'));
    fireEvent.click(screen.getByRole('button', { name: 'Create room' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(room));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toEqual({ imagingDatasetId: datasetId, patientId: 'P1a2b3c4d5e6f' });
  });
});
