import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { commentBodyMaxLength, commentBodyTooLongMessage, type CommentPerson } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { initialsOf } from '../../../lib/initials';
import {
  activeMention,
  insertMention,
  matchPeople,
  toCommentBody,
  type ActiveMention,
  type MentionRef,
} from '../mentionText';

export interface MentionComposerProps {
  /** The accessible name of the text field. */
  label: string;
  submitLabel: string;
  /** Whom `@` offers: the project team. */
  people: readonly CommentPerson[];
  initialText?: string;
  initialMentions?: readonly MentionRef[];
  placeholder?: string;
  autoFocus?: boolean;
  /** Sends the body (with mention tokens); a rejection is shown, a resolution empties the field. */
  onSubmit: (body: string) => Promise<void>;
  onCancel?: () => void;
  /** Names this field when it reports unsent text (for the leave-page question). */
  dirtyKey?: string;
  onDirtyChange?: (key: string, dirty: boolean) => void;
}

/**
 * A comment field with @mentions of the project team: typing `@` and part of a name offers the matching people
 * (arrow keys move, Enter or Tab chooses, Escape closes); Ctrl+Enter sends.
 */
export function MentionComposer({
  label,
  submitLabel,
  people,
  initialText = '',
  initialMentions = [],
  placeholder,
  autoFocus = false,
  onSubmit,
  onCancel,
  dirtyKey = 'comment',
  onDirtyChange,
}: MentionComposerProps) {
  const id = useId();
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const [text, setText] = useState(initialText);
  const [mentions, setMentions] = useState<MentionRef[]>([...initialMentions]);
  const [caret, setCaret] = useState(initialText.length);
  const [highlighted, setHighlighted] = useState(0);
  /** The `@` whose suggestions were closed (Escape, or a person chosen): they stay closed until another `@`. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);

  const dirty = text.trim() !== initialText.trim();
  useEffect(() => {
    onDirtyChange?.(dirtyKey, dirty);
  }, [dirty, dirtyKey, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(dirtyKey, false), [dirtyKey, onDirtyChange]);

  // A field opened with text (an edit, a reply that mentions someone) starts with the caret at its end.
  useEffect(() => {
    const input = inputRef.current;
    if (autoFocus && input) input.setSelectionRange(input.value.length, input.value.length);
  }, [autoFocus]);

  // After a mention is chosen, the caret goes behind the inserted name.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (pendingCaret.current === null || !input) return;
    input.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [text]);

  const active: ActiveMention | null = busy ? null : activeMention(text, caret);
  const suggestions = active && active.start !== dismissed ? matchPeople(people, active.query) : [];
  const open = suggestions.length > 0;
  const current = Math.min(highlighted, Math.max(suggestions.length - 1, 0));
  const body = toCommentBody(text, mentions);
  const tooLong = body.trim().length > commentBodyMaxLength;

  const follow = (input: HTMLTextAreaElement) => {
    setCaret(input.selectionStart);
  };

  const choose = (person: CommentPerson) => {
    if (!active) return;
    const next = insertMention(text, active, caret, person, mentions);
    pendingCaret.current = next.caret;
    setText(next.text);
    setMentions(next.mentions);
    setCaret(next.caret);
    // The chosen name is not a query any more.
    setDismissed(active.start);
    setHighlighted(0);
    inputRef.current?.focus();
  };

  const submit = async () => {
    if (busy || text.trim() === '' || tooLong) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(body);
      setText('');
      setMentions([]);
      setCaret(0);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The comment could not be sent. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (open && active) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlighted((current + step + suggestions.length) % suggestions.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(suggestions[current]!);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the suggestions only, not a dialog or the editing around the field.
        event.preventDefault();
        event.stopPropagation();
        setDismissed(active.start);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const listId = `${id}-people`;
  return (
    <Stack spacing={1} component="form" onSubmit={(event) => (event.preventDefault(), void submit())}>
      <Box sx={{ position: 'relative' }}>
        <TextField
          fullWidth
          multiline
          minRows={2}
          maxRows={12}
          value={text}
          placeholder={placeholder}
          autoFocus={autoFocus}
          disabled={busy}
          inputRef={inputRef}
          onChange={(event) => {
            setText(event.target.value);
            follow(event.target as HTMLTextAreaElement);
            setHighlighted(0);
          }}
          onSelect={(event) => follow(event.target as HTMLTextAreaElement)}
          onKeyDown={onKeyDown}
          error={tooLong}
          helperText={tooLong ? commentBodyTooLongMessage : 'Type @ to mention a team member. Ctrl+Enter sends.'}
          slotProps={{
            htmlInput: {
              'aria-label': label,
              role: 'combobox',
              'aria-autocomplete': 'list',
              'aria-expanded': open,
              'aria-controls': open ? listId : undefined,
              'aria-activedescendant': open ? `${listId}-${current}` : undefined,
            },
          }}
        />
        {open && (
          <Paper
            elevation={6}
            sx={{ position: 'absolute', zIndex: 'modal', left: 0, top: '100%', minWidth: 280, maxWidth: '100%' }}
          >
            <Box component="ul" role="listbox" id={listId} aria-label="Team members" sx={{ m: 0, p: 0.5 }}>
              {suggestions.map((person, index) => (
                <ListItemButton
                  key={person.userId}
                  component="li"
                  role="option"
                  aria-label={person.fullName}
                  id={`${listId}-${index}`}
                  aria-selected={index === current}
                  selected={index === current}
                  dense
                  // Keeps the focus (and the caret) in the text field.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(person)}
                  sx={{ borderRadius: 1 }}
                >
                  <ListItemAvatar sx={{ minWidth: 40 }}>
                    <Avatar src={person.pictureUrl ?? undefined} alt="" sx={{ width: 28, height: 28, fontSize: 12 }}>
                      {initialsOf(person.fullName)}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText primary={person.fullName} />
                </ListItemButton>
              ))}
            </Box>
          </Paper>
        )}
      </Box>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
        {body.length > commentBodyMaxLength * 0.9 && (
          <Typography variant="caption" color={tooLong ? 'error' : 'text.secondary'} sx={{ mr: 'auto' }}>
            {body.trim().length} / {commentBodyMaxLength}
          </Typography>
        )}
        {onCancel && (
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={busy || text.trim() === '' || tooLong}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
