import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { pictureMaxBytes, pictureTooBigMessage, pictureTypeMessage } from '@insilico/contracts';
import { ApiError } from '../lib/apiError';
import { renderWithProviders } from '../../test/helpers/renderWithProviders';
import { PictureUpload, uploadFailedMessage } from './PictureUpload';

const jpeg = (size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return new File([bytes], 'me.jpg', { type: 'image/jpeg' });
};

function choose(file: File) {
  fireEvent.change(screen.getByLabelText('Choose a file for the profile picture'), { target: { files: [file] } });
}

afterEach(cleanup);

describe('PictureUpload', () => {
  it('shows the spec messages for a wrong type or a too-large file without sending it', async () => {
    const onUpload = vi.fn(() => Promise.resolve());
    renderWithProviders(
      <PictureUpload label="Profile picture" pictureUrl={null} placeholder="AL" onUpload={onUpload} />,
    );
    choose(new File(['plain text'], 'notes.png', { type: 'image/png' }));
    expect(await screen.findByText(pictureTypeMessage)).toBeTruthy();
    choose(jpeg(pictureMaxBytes + 1));
    expect(await screen.findByText(pictureTooBigMessage)).toBeTruthy();
    expect(onUpload).not.toHaveBeenCalled();
  });

  it('sends a picture that passes, and shows the server’s refusal', async () => {
    const onUpload = vi.fn(() => Promise.reject(new ApiError(415, 'picture_type', pictureTypeMessage)));
    renderWithProviders(
      <PictureUpload label="Profile picture" pictureUrl={null} placeholder="AL" onUpload={onUpload} />,
    );
    const file = jpeg();
    choose(file);
    expect(await screen.findByText(pictureTypeMessage)).toBeTruthy();
    expect(onUpload).toHaveBeenCalledWith(file);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says Upload failed with Try again when the transfer fails, and retries the same file', async () => {
    const onUpload = vi
      .fn<(file: File) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(0, 'network', 'offline'))
      .mockResolvedValueOnce(undefined);
    renderWithProviders(
      <PictureUpload label="Profile picture" pictureUrl={null} placeholder="AL" onUpload={onUpload} />,
    );
    const file = jpeg();
    choose(file);
    expect(await screen.findByText(uploadFailedMessage)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByText(uploadFailedMessage)).toBeNull());
    expect(onUpload).toHaveBeenCalledTimes(2);
    expect(onUpload.mock.calls[1]?.[0]).toBe(file);
  });

  it('asks before removing the picture', async () => {
    const onRemove = vi.fn(() => Promise.resolve());
    renderWithProviders(
      <PictureUpload
        label="Profile picture"
        pictureUrl="/api/users/u/picture?size=thumb&v=1"
        placeholder="AL"
        onUpload={() => Promise.resolve()}
        onRemove={onRemove}
      />,
    );
    expect(screen.getByRole('button', { name: 'Change picture' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Remove the profile picture?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    // Wait for the dialog to close: while it fades out, the page behind is aria-hidden and the only
    // accessible "Remove" is the dialog's own confirm button.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onRemove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(dialog.querySelector('button.MuiButton-containedError')!);
    await waitFor(() => expect(onRemove).toHaveBeenCalledTimes(1));
  });

  it('only shows the picture without an upload handler', () => {
    renderWithProviders(<PictureUpload label="Device picture" pictureUrl={null} placeholder="D" />);
    expect(screen.getByText('No device picture yet.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
