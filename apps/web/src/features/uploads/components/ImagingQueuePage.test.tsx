import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { ImagingModelsDeliveryState, ImagingQueue, ImagingQueueItem } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { ImagingQueuePage } from './ImagingQueuePage';

const id = '0b6f3c1e-7a52-4c1b-9d0e-5f3a2b1c4d6e';

function item(delivery: ImagingModelsDeliveryState | null): ImagingQueueItem {
  return {
    id,
    name: 'Own CT',
    note: '',
    status: 'modelling',
    projectId: null,
    bytes: 1024,
    region: 'eu',
    uploadedBy: { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', name: 'Ada' },
    createdAt: '2026-11-28T10:00:00.000Z',
    checkedAt: '2026-11-28T10:01:00.000Z',
    counts: { patients: 3, studies: 3, series: 3, files: 9 },
    findings: [],
    manifest: null,
    models: null,
    workspace: { id: '2c8e7dbe-ccae-4c3e-8c6e-bc9ecccd5cfe', name: 'Valve X' },
    delivery,
  };
}

const state = (status: ImagingModelsDeliveryState['status'], more: Partial<ImagingModelsDeliveryState> = {}) => ({
  status,
  progress: 0.4,
  progressMessage: 'Checking the models',
  findings: [],
  submittedAt: '2026-11-28T10:02:00.000Z',
  finishedAt: null,
  ...more,
});

/** Answers the queue with each list in turn (the last one from then on), and the delivery with 202. */
function serve(queues: ImagingQueue[]) {
  let read = 0;
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PUT')
      return Promise.resolve(
        jsonResponse(202, { pending: true, accepted: false, findings: [], dataset: item(state('pending')) }),
      );
    const answer = queues[Math.min(read, queues.length - 1)]!;
    if (String(input).includes('status=modelling')) read += 1;
    return Promise.resolve(jsonResponse(200, answer));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function page() {
  renderWithProviders(
    <MemoryRouter>
      <ImagingQueuePage />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ImagingQueuePage: the delivery of models as a job', () => {
  it('shows a pending delivery with its progress, polls, and tells when the cohort became ready', async () => {
    serve([{ items: [item(state('pending'))] }, { items: [item(state('pending', { progress: 0.8 }))] }, { items: [] }]);
    page();
    expect(await screen.findByText('Checking the models … 40 %')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Checking the models' })).toBeTruthy();
    // The file input is disabled while the check runs (one delivery at a time).
    expect(screen.getByLabelText<HTMLInputElement>('Patient models of Own CT').disabled).toBe(true);
    await waitFor(() => expect(screen.getByText('Checking the models … 80 %')).toBeTruthy(), { timeout: 5000 });
    await waitFor(
      () => expect(screen.getByText('The models of Own CT were accepted: the imaging cohort is ready.')).toBeTruthy(),
      { timeout: 5000 },
    );
  }, 15_000);

  it('lists a refused delivery’s findings, and sends a new zip', async () => {
    const refused = state('refused', {
      progress: 1,
      progressMessage: null,
      findings: [{ file: 'P1/landmarks.json', tag: null, problem: 'is missing' }],
      finishedAt: '2026-11-28T10:03:00.000Z',
    });
    const fetchMock = serve([{ items: [item(refused)] }, { items: [item(state('pending'))] }]);
    page();
    expect(await screen.findByText('The models were not accepted:')).toBeTruthy();
    expect(screen.getByText('P1/landmarks.json')).toBeTruthy();
    expect(screen.getByText('is missing')).toBeTruthy();
    const input = screen.getByLabelText<HTMLInputElement>('Patient models of Own CT');
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(4)], 'models.zip')] } });
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    expect(await screen.findByText('Checking the models … 40 %')).toBeTruthy();
  });
});
