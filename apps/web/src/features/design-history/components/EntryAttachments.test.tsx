import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { attachmentMaxBytes } from '@insilico/contracts';
import { renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { ApiError } from '../../../lib/apiError';
import { attachFiles, EntryAttachments } from './EntryAttachments';

/** The server's answers (api) and the large files' resumable uploads, as each test scripts them. */
const calls = vi.hoisted(() => ({
  attachFile: vi.fn<(deviceId: string, entryId: string, file: File) => Promise<unknown>>(),
  attachUploaded: vi.fn<(deviceId: string, entryId: string, uploadId: string) => Promise<unknown>>(),
  sendResumable:
    vi.fn<(deviceId: string, file: File, onProgress: (sent: number, total: number) => void) => Promise<string>>(),
}));
vi.mock('../api', () => ({ attachFile: calls.attachFile, attachUploaded: calls.attachUploaded }));
vi.mock('../attachmentUpload', () => ({ sendResumable: calls.sendResumable }));

const uploadId = '99999999-9999-4999-8999-999999999999';

/** A file just above the one-request limit (its size faked: the bytes are never read here). */
function largeFile(name: string): File {
  const file = new File([new Uint8Array(8)], name, { type: 'video/mp4' });
  Object.defineProperty(file, 'size', { value: attachmentMaxBytes + 1 });
  return file;
}

/** What tus-js-client rejects with when the connection broke and its retries are spent (or the browser is offline). */
const brokenConnection = () =>
  new Error('tus: failed to upload chunk at offset 8388608, caused by [object ProgressEvent]');

afterEach(() => {
  vi.resetAllMocks();
});

describe('attachFiles', () => {
  it('answers a broken transfer as "Upload failed" with the file and those after it to send again', async () => {
    const protocol = new File(['cycles\n1\n'], 'protocol.csv', { type: 'text/csv' });
    const recording = largeFile('recording.mp4');
    const notes = new File(['ok'], 'notes.txt', { type: 'text/plain' });
    calls.attachFile.mockResolvedValue({});
    calls.sendResumable.mockRejectedValue(brokenConnection());
    const progress: (string | null)[] = [];
    const failure = await attachFiles('d-1', 'e-1', [protocol, recording, notes], (text) => progress.push(text));
    expect(failure).toEqual({
      message: '“recording.mp4” was not attached: Upload failed.',
      retry: [recording, notes],
      attached: 1,
    });
    expect(calls.attachFile.mock.calls.map(([, , file]) => file.name)).toEqual(['protocol.csv']);
    // The progress is cleared once a file is done or has failed (the alert says what happened).
    expect(progress).toEqual([null, null]);
  });

  it('counts an unreachable server as a broken transfer, and a refusal as final (no Try again)', async () => {
    const file = new File(['x'], 'bench.pdf', { type: 'application/pdf' });
    calls.attachFile.mockRejectedValueOnce(new ApiError(0, 'network', 'The server could not be reached.'));
    expect(await attachFiles('d-1', 'e-1', [file])).toEqual({
      message: '“bench.pdf” was not attached: Upload failed.',
      retry: [file],
      attached: 0,
    });
    calls.attachFile.mockRejectedValueOnce(new ApiError(409, 'attachment_duplicate', 'This file is attached already.'));
    expect(await attachFiles('d-1', 'e-1', [file])).toEqual({
      message: '“bench.pdf” was not attached: This file is attached already.',
      retry: null,
      attached: 0,
    });
  });
});

describe('an entry’s attachments', () => {
  it('says Upload failed with Try again when a large file’s transfer breaks, and Try again sends it again', async () => {
    const recording = largeFile('recording.mp4');
    calls.sendResumable.mockImplementationOnce((_deviceId, _file, onProgress) => {
      onProgress(40 * 1024 * 1024, recording.size);
      return Promise.reject(brokenConnection());
    });
    let finish: (id: string) => void = () => undefined;
    calls.sendResumable.mockImplementationOnce((_deviceId, _file, onProgress) => {
      // Resumed: tus-js-client reports the offset the server holds first.
      onProgress(40 * 1024 * 1024, recording.size);
      return new Promise((resolve) => (finish = resolve));
    });
    calls.attachUploaded.mockResolvedValue({});
    const onAttached = vi.fn();
    renderWithProviders(
      <EntryAttachments
        deviceId="d-1"
        entryId="e-1"
        entryTitle="Bench recording"
        attachments={[]}
        canAttach
        onAttached={onAttached}
      />,
    );
    fireEvent.change(screen.getByLabelText('Files to attach to Bench recording'), { target: { files: [recording] } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('“recording.mp4” was not attached: Upload failed.');
    expect(screen.queryByRole('status')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('status')).textContent).toBe('Sending “recording.mp4”: 39 %');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.sendResumable.mock.calls.map(([, file]) => file)).toEqual([recording, recording]);
    finish(uploadId);
    await waitFor(() => expect(calls.attachUploaded).toHaveBeenCalledWith('d-1', 'e-1', uploadId));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Attach file' })).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
    // The timeline is read again once the file is attached, not after the failure (the connection may be gone).
    expect(onAttached).toHaveBeenCalledTimes(1);
  });

  it('offers no Try again when the server refused the file', async () => {
    calls.sendResumable.mockResolvedValue(uploadId);
    calls.attachUploaded.mockRejectedValue(
      new ApiError(422, 'attachment_hash', 'The file’s SHA-256 is not the one its upload declared.'),
    );
    renderWithProviders(
      <EntryAttachments
        deviceId="d-1"
        entryId="e-1"
        entryTitle="Scan"
        attachments={[]}
        canAttach
        onAttached={vi.fn()}
      />,
    );
    fireEvent.change(screen.getByLabelText('Files to attach to Scan'), { target: { files: [largeFile('scan.bin')] } });
    expect((await screen.findByRole('alert')).textContent).toContain(
      '“scan.bin” was not attached: The file’s SHA-256 is not the one its upload declared.',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
