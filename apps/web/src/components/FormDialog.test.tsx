import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../lib/apiError';
import { FormDialog } from './FormDialog';

afterEach(cleanup);

function dialog(send: () => Promise<void>, options: { canSubmit?: boolean; onClose?: () => void } = {}) {
  render(
    <FormDialog
      title="Rename the thing"
      submitLabel="Rename"
      canSubmit={options.canSubmit ?? true}
      send={send}
      failure="The thing could not be renamed. Please try again."
      onClose={options.onClose ?? (() => undefined)}
    >
      {(busy) => <input aria-label="Name" disabled={busy} />}
    </FormDialog>,
  );
}
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('FormDialog', () => {
  it('is one form named by its title: Enter in a field sends it', async () => {
    const send = vi.fn(() => Promise.resolve());
    dialog(send);
    expect(screen.getByRole('dialog', { name: 'Rename the thing' })).toBeTruthy();
    fireEvent.submit(screen.getByRole('textbox', { name: 'Name' }).closest('form')!);
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
  });

  it('is busy while sending: buttons and fields disabled until the caller closes it', async () => {
    dialog(() => new Promise<void>(() => undefined));
    fireEvent.click(button('Rename'));
    await waitFor(() => expect(button('Rename').disabled).toBe(true));
    expect(button('Cancel').disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Name' }).disabled).toBe(true);
  });

  it('shows the server’s refusal in its words, and may be sent again', async () => {
    let attempt = 0;
    const send = vi.fn(() => {
      attempt += 1;
      return attempt === 1
        ? Promise.reject(new ApiError(409, 'conflict', 'A thing with this name already exists.'))
        : Promise.resolve();
    });
    dialog(send);
    fireEvent.click(button('Rename'));
    expect((await screen.findByRole('alert')).textContent).toBe('A thing with this name already exists.');
    expect(button('Rename').disabled).toBe(false);
    fireEvent.click(button('Rename'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('says what failed when the failure is not the server’s refusal', async () => {
    dialog(() => Promise.reject(new Error('socket hang up')));
    fireEvent.click(button('Rename'));
    expect((await screen.findByRole('alert')).textContent).toBe('The thing could not be renamed. Please try again.');
  });

  it('cannot be sent while the caller says so, and Cancel closes it', () => {
    const onClose = vi.fn();
    dialog(() => Promise.resolve(), { canSubmit: false, onClose });
    expect(button('Rename').disabled).toBe(true);
    fireEvent.click(button('Cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
