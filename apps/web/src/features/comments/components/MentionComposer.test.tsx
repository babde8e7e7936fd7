import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { commentBodyMaxLength, commentBodyTooLongMessage, mentionToken } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { MentionComposer } from './MentionComposer';

const people = [
  { userId: '11111111-1111-4111-8111-111111111111', fullName: 'Ada Lovelace', pictureUrl: null },
  { userId: '22222222-2222-4222-8222-222222222222', fullName: 'Alan Turing', pictureUrl: null },
  { userId: '33333333-3333-4333-8333-333333333333', fullName: 'Grace Hopper', pictureUrl: null },
];

afterEach(cleanup);

function field() {
  return screen.getByRole<HTMLTextAreaElement>('combobox', { name: 'Write a comment' });
}

function type(text: string) {
  const input = field();
  fireEvent.change(input, { target: { value: text, selectionStart: text.length, selectionEnd: text.length } });
}

function setup(onSubmit = vi.fn<(body: string) => Promise<void>>(() => Promise.resolve())) {
  renderWithProviders(
    <MentionComposer label="Write a comment" submitLabel="Comment" people={people} onSubmit={onSubmit} />,
  );
  return onSubmit;
}

describe('MentionComposer', () => {
  it('offers the team after @, moves with the arrow keys and chooses with Enter', async () => {
    const onSubmit = setup();
    type('Hi @a');
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.getAttribute('aria-label'))).toEqual([
      'Ada Lovelace',
      'Alan Turing',
      'Grace Hopper',
    ]);
    expect(field().getAttribute('aria-expanded')).toBe('true');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(field(), { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    fireEvent.keyDown(field(), { key: 'ArrowUp' });
    expect(screen.getAllByRole('option')[2]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(field().value).toBe('Hi @Grace Hopper ');
    expect(screen.queryByRole('listbox')).toBeNull();

    type('Hi @Grace Hopper please look');
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(`Hi ${mentionToken(people[2]!)} please look`));
    await waitFor(() => expect(field().value).toBe(''));
  });

  it('closes the suggestions with Escape until another @ is typed, and chooses with a click', () => {
    setup();
    type('@Al');
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.keyDown(field(), { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    type('@Ala');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('@Ala and @Ad');
    fireEvent.click(screen.getByRole('option', { name: 'Ada Lovelace' }));
    expect(field().value).toBe('@Ala and @Ada Lovelace ');
  });

  it('shows nothing when no team member matches', () => {
    setup();
    type('@zz');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('sends with Ctrl+Enter and shows the server’s refusal, keeping the text', async () => {
    const onSubmit = setup(
      vi.fn(() =>
        Promise.reject(new ApiError(422, 'mention_not_on_team', 'Only members of the project team can be mentioned.')),
      ),
    );
    type('Looks fine');
    fireEvent.keyDown(field(), { key: 'Enter', ctrlKey: true });
    expect(await screen.findByText('Only members of the project team can be mentioned.')).toBeTruthy();
    expect(onSubmit).toHaveBeenCalledWith('Looks fine');
    expect(field().value).toBe('Looks fine');
  });

  it('does not send an empty or too long comment', () => {
    const onSubmit = setup();
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Comment' });
    type('   ');
    expect(button.disabled).toBe(true);
    type('x'.repeat(commentBodyMaxLength + 1));
    expect(screen.getByText(commentBodyTooLongMessage)).toBeTruthy();
    expect(button.disabled).toBe(true);
    fireEvent.keyDown(field(), { key: 'Enter', ctrlKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
