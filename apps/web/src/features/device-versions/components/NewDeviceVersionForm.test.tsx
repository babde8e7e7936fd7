import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { deviceVersionNameTakenMessage, notStlMessage } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import type * as StlUploadModule from '../stlUpload';
import type { StlUploadControl, StlUploadHandlers } from '../stlUpload';
import { NewDeviceVersionForm } from './NewDeviceVersionForm';

// The tus transfer is replaced by a controllable fake: each started upload is kept with its handlers.
const started: { file: File; handlers: StlUploadHandlers; control: StlUploadControl }[] = [];
vi.mock('../stlUpload', async (importActual) => ({
  ...(await importActual<typeof StlUploadModule>()),
  startStlUpload: (_deviceId: string, file: File, handlers: StlUploadHandlers) => {
    const control = { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn() };
    started.push({ file, handlers, control });
    return control;
  },
}));

const deviceId = '00000000-0000-4000-8000-000000000001';
const version = {
  id: '00000000-0000-4000-8000-0000000000aa',
  deviceId,
  name: 'Valve Gen 2',
  description: '',
  status: 'processing',
  progress: 0,
  progressMessage: null,
  error: null,
  files: [],
  createdBy: null,
  createdAt: '2026-11-22T00:00:00.000Z',
  processedAt: null,
  projects: [],
  targetProjectId: null,
};
let fetchMock: ReturnType<typeof vi.fn>;
let taken = false;

beforeEach(() => {
  started.length = 0;
  taken = false;
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (url.includes('/name-available'))
      return Promise.resolve(
        jsonResponse(
          200,
          taken ? { available: false, message: deviceVersionNameTakenMessage } : { available: true, message: null },
        ),
      );
    if (init?.method === 'POST') return Promise.resolve(jsonResponse(201, version));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stl = (name: string) => new File([new Uint8Array(84)], name, { type: 'model/stl' });
const choose = (...files: File[]) =>
  fireEvent.change(screen.getByLabelText('3D model files (.stl)'), { target: { files } });

describe('NewDeviceVersionForm', () => {
  it('shows the spec message when the name is taken', async () => {
    taken = true;
    renderWithProviders(<NewDeviceVersionForm deviceId={deviceId} onCreated={vi.fn()} />);
    fireEvent.change(screen.getByLabelText(/Device version name/), { target: { value: 'Valve Gen 2' } });
    expect(await screen.findByText(deviceVersionNameTakenMessage)).toBeTruthy();
  });

  it('refuses a file that is not .stl without uploading it, and uploads the others', async () => {
    renderWithProviders(<NewDeviceVersionForm deviceId={deviceId} onCreated={vi.fn()} />);
    choose(stl('frame.stl'), new File(['x'], 'notes.txt'));
    expect(await screen.findByText(notStlMessage)).toBeTruthy();
    expect(started.map((s) => s.file.name)).toEqual(['frame.stl']);
  });

  it('says Upload failed with Try again, which resumes the same upload', async () => {
    renderWithProviders(<NewDeviceVersionForm deviceId={deviceId} onCreated={vi.fn()} />);
    choose(stl('frame.stl'));
    await waitFor(() => expect(started).toHaveLength(1));
    started[0]!.handlers.onFailed('network');
    expect(await screen.findByText('Upload failed')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(started[0]!.control.resume).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByText('Upload failed')).toBeNull());
  });

  it('pauses and resumes, and creates the version once every file is uploaded', async () => {
    const onCreated = vi.fn();
    const onDirtyChange = vi.fn();
    renderWithProviders(
      <NewDeviceVersionForm deviceId={deviceId} onCreated={onCreated} onDirtyChange={onDirtyChange} />,
    );
    fireEvent.change(screen.getByLabelText(/Device version name/), { target: { value: 'Valve Gen 2' } });
    choose(stl('frame.stl'));
    await waitFor(() => expect(started).toHaveLength(1));
    started[0]!.handlers.onProgress(42, 84);
    expect(await screen.findByText('Uploading… 50 %')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pause frame.stl' }));
    expect(started[0]!.control.pause).toHaveBeenCalled();
    expect(await screen.findByText('Paused at 50 %')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume frame.stl' }));
    expect(started[0]!.control.resume).toHaveBeenCalled();

    // Not yet: the file is still uploading.
    fireEvent.click(screen.getByRole('button', { name: 'Create device version' }));
    expect(await screen.findByText(/Wait until every file has finished uploading/)).toBeTruthy();
    expect(onCreated).not.toHaveBeenCalled();

    started[0]!.handlers.onDone('00000000-0000-4000-8000-0000000000bb');
    expect(await screen.findByText('Uploaded')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create device version' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(version));
    const post = fetchMock.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    expect(JSON.parse((post![1] as RequestInit).body as string)).toEqual({
      name: 'Valve Gen 2',
      description: '',
      uploadIds: ['00000000-0000-4000-8000-0000000000bb'],
    });
    expect(onDirtyChange).toHaveBeenCalledWith(true);
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
  });
});
