import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { supportMessageMaxLength } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';

interface ReplyFormProps {
  label: string;
  submitLabel: string;
  /** Sends the text; rejects with the server's refusal. */
  onSend: (body: string) => Promise<void>;
}

/** A text box with a send button for a thread (the user's reply, support's answer). */
export function ReplyForm({ label, submitLabel, onSend }: ReplyFormProps) {
  const [body, setBody] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) return setError('Please enter a message.');
    setSending(true);
    setError(null);
    try {
      await onSend(body.trim());
      setBody('');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Your message could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack component="form" spacing={1.5} onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label={label}
        multiline
        minRows={3}
        value={body}
        onChange={(event) => {
          setBody(event.target.value);
          setError(null);
        }}
        slotProps={{ htmlInput: { maxLength: supportMessageMaxLength } }}
      />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={sending}
          startIcon={sending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {sending ? 'Sending…' : submitLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
