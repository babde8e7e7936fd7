import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { cohortNameTakenMessage, cohortNameWarning, type ImagingDataset } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { UploadPanel } from './ImagingViews';

// The zip's transfer (tus) and the browser's copy of it are outside this test: the upload ends at once as 'up-1'.
vi.mock('../imaging/imagingUpload', () => ({
  startImagingUpload: (_deviceId: string, _zip: Blob, handlers: { onDone: (uploadId: string) => void }) => {
    queueMicrotask(() => handlers.onDone('up-1'));
    return { pause: () => undefined, resume: () => undefined, cancel: () => undefined };
  },
  transferRate: () => ({ bytesPerSecond: 0, secondsLeft: null }),
}));
vi.mock('../imaging/pendingUpload', () => ({
  pendingUploads: {
    save: () => Promise.resolve(),
    update: () => undefined,
    clear: () => Promise.resolve(),
  },
}));

const dataset: ImagingDataset = {
  id: '55555555-5555-4555-8555-555555555555',
  name: 'Thorax CT 2',
  note: '',
  status: 'checking',
  projectId: null,
  bytes: 3,
  region: 'eu',
  uploadedBy: null,
  createdAt: '2026-11-29T09:00:00.000Z',
  checkedAt: null,
  counts: null,
  findings: [],
  manifest: null,
  models: null,
};
let names: string[];

beforeEach(() => {
  names = [];
  stubApi((url, init) => {
    if (url.pathname !== '/api/devices/d-1/imaging-datasets' || init?.method !== 'POST') return undefined;
    const { name } = JSON.parse(String(init.body)) as { name: string };
    names.push(name);
    return name === 'Thorax CT'
      ? jsonResponse(409, { error: { code: 'cohort_name_taken', message: cohortNameTakenMessage } })
      : jsonResponse(201, { ...dataset, name });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UploadPanel (spec §5 "Cohort name": unique)', () => {
  it('asks for another name on the field when the name is taken, and makes the dataset without sending again', async () => {
    const onDataset = vi.fn();
    renderWithProviders(
      <UploadPanel
        deviceId="d-1"
        userId="u-1"
        origin="upload-images"
        source={{ zip: new Blob(['zip']), name: 'Thorax CT', note: '', resumePath: null }}
        onDataset={onDataset}
      />,
    );
    const form = await screen.findByRole('form', { name: 'Name the dataset' });
    const field = within(form).getByRole('textbox', { name: /Dataset name/ });
    expect(within(form).getByText(cohortNameTakenMessage)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('Upload failed')).toBeNull();

    fireEvent.change(field, { target: { value: 'Thorax CT 2' } });
    expect(within(form).queryByText(cohortNameTakenMessage)).toBeNull();
    expect(within(form).getByText(cohortNameWarning)).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Create the dataset' }));
    await waitFor(() => expect(onDataset).toHaveBeenCalledWith({ ...dataset, name: 'Thorax CT 2' }));
    expect(names).toEqual(['Thorax CT', 'Thorax CT 2']);
  });
});
