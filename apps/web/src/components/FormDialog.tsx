import { useId, useState, type FormEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { ApiError } from '../lib/apiError';

interface FormDialogProps {
  /** For a dialog kept mounted while closed; by default it is mounted only while open. */
  open?: boolean;
  title: string;
  submitLabel: string;
  /** Whether the form may be sent (while it is being sent it may not, whatever this says). */
  canSubmit: boolean;
  /**
   * Sends the form. On success the caller closes the dialog, which stays busy until then; a refusal shows in the
   * dialog as the server words it (`ApiError`), any other failure as `failure`, and the form may be sent again.
   */
  send: () => Promise<void>;
  failure: string;
  onClose: () => void;
  /** The fields, given whether the form is being sent (to disable what must not change meanwhile). */
  children: ReactNode | ((busy: boolean) => ReactNode);
}

/**
 * A dialog that is one form: title, fields, the refusal of the last attempt, then Cancel and the submit button (Enter
 * sends it). While the form is sent the buttons are disabled, the submit button spins, and neither Escape nor a click
 * outside closes it.
 */
export function FormDialog({
  open = true,
  title,
  submitLabel,
  canSubmit,
  send,
  failure,
  onClose,
  children,
}: FormDialogProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await send();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : failure);
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          {typeof children === 'function' ? children(busy) : children}
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !canSubmit}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
