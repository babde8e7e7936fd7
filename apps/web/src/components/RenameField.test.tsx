import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renameFailedMessage } from '@insilico/contracts';
import { renderWithProviders } from '../../test/helpers/renderWithProviders';
import { RenameField, renameErrorShownMs, type RenameOutcome } from './RenameField';

const taken = 'A room with this name already exists.';

function field(onRename: (name: string) => Promise<RenameOutcome>, otherNames: string[] = ['Baseline']) {
  renderWithProviders(
    <RenameField value="Valve room" noun="room" onRename={onRename} otherNames={otherNames} duplicateMessage={taken} />,
  );
}
const startEditing = () => fireEvent.click(screen.getByRole('button', { name: 'Rename room Valve room' }));
const input = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Room name' });
const type = (text: string) => fireEvent.change(input(), { target: { value: text } });

afterEach(cleanup);

describe('RenameField', () => {
  it('starts idle, edits on the rename icon, and confirms with Enter', async () => {
    const onRename = vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved'));
    field(onRename);
    expect(screen.queryByRole('textbox')).toBeNull();
    startEditing();
    expect(input().value).toBe('Valve room');
    type('  Oversized valve  ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(onRename).toHaveBeenCalledWith('Oversized valve'));
    await waitFor(() => expect(screen.queryByRole('textbox')).toBeNull());
  });

  it('confirms with the check icon', async () => {
    const onRename = vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved'));
    field(onRename);
    startEditing();
    type('Second');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm the name' }));
    await waitFor(() => expect(onRename).toHaveBeenCalledWith('Second'));
  });

  it('restores the old text with the cancel icon and with Escape, without saving', () => {
    const onRename = vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved'));
    field(onRename);
    startEditing();
    type('Something else');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel renaming' }));
    expect(screen.getByText('Valve room')).toBeTruthy();
    startEditing();
    expect(input().value).toBe('Valve room');
    type('Another');
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onRename).not.toHaveBeenCalled();
  });

  it('shows the error while the name equals another one, and cancels the rename on confirm', () => {
    const onRename = vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved'));
    field(onRename);
    startEditing();
    type('baseline');
    expect(screen.getByRole('alert').textContent).toBe(taken);
    expect(input().getAttribute('aria-invalid')).toBe('true');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(onRename).not.toHaveBeenCalled();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('Valve room')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(taken);
  });

  it('lets the reason of a cancelled rename go after a while, and at once when a new rename starts', () => {
    vi.useFakeTimers();
    try {
      field(vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved')));
      startEditing();
      type('baseline');
      fireEvent.keyDown(input(), { key: 'Enter' });
      expect(screen.getByRole('alert').textContent).toBe(taken);
      act(() => void vi.advanceTimersByTime(renameErrorShownMs - 100));
      expect(screen.getByRole('alert').textContent).toBe(taken);
      act(() => void vi.advanceTimersByTime(200));
      expect(screen.queryByRole('alert')).toBeNull();

      startEditing();
      type('baseline');
      fireEvent.keyDown(input(), { key: 'Enter' });
      startEditing();
      expect(screen.queryByRole('alert')).toBeNull();
      fireEvent.keyDown(input(), { key: 'Escape' });
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels the rename with the duplicate error when the server finds the name taken', async () => {
    field(() => Promise.resolve('duplicate'), []);
    startEditing();
    type('Taken elsewhere');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toBe(taken);
    expect(screen.getByText('Valve room')).toBeTruthy();
  });

  it('shows the spec’s rename error when saving fails, and keeps the old name', async () => {
    field(() => Promise.reject(new Error('boom')));
    startEditing();
    type('Anything');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm the name' }));
    expect((await screen.findByRole('alert')).textContent).toBe(renameFailedMessage);
    expect(screen.getByText('Valve room')).toBeTruthy();
  });

  it('keeps editing with a message for an empty name, and confirms an unchanged name without saving', () => {
    const onRename = vi.fn((_name: string) => Promise.resolve<RenameOutcome>('saved'));
    field(onRename);
    startEditing();
    type('   ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Please give the room a name.');
    expect(input()).toBeTruthy();
    type('Valve room');
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onRename).not.toHaveBeenCalled();
  });
});
