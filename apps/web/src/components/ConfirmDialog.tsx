import { useId, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  message: ReactNode;
  /** While the action runs: the buttons are disabled and the dialog stays open. */
  busy?: boolean;
  /** The refusal of the last attempt, shown in the dialog. */
  error?: string | null;
  onCancel: () => void;
} & (
  | { confirmLabel: string; onConfirm: () => void }
  /** An action that is refused before it is tried: the dialog says why, with Close only. */
  | { confirmLabel?: never; onConfirm?: never }
);

/**
 * Asks before a destructive action (remove, revoke); Cancel has the focus so Enter never destroys. Without
 * `onConfirm` it explains why the action cannot happen, with Close only.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busy = false,
  error = null,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const id = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`} component="div">
          {message}
        </DialogContentText>
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          {onConfirm ? 'Cancel' : 'Close'}
        </Button>
        {onConfirm && (
          <Button
            color="error"
            variant="contained"
            onClick={onConfirm}
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
