import { analysisErrorMessage } from '@insilico/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** Spec §8's analysis error dialog: the message word for word, with Cancel and Reload. */
export function AnalysisErrorDialog({ open, onCancel }: { open: boolean; onCancel: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby="analysis-error-title"
      aria-describedby="analysis-error-text"
    >
      <DialogTitle id="analysis-error-title">Something went wrong</DialogTitle>
      <DialogContent>
        <DialogContentText id="analysis-error-text">{analysisErrorMessage}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={() => window.location.reload()} autoFocus>
          Reload
        </Button>
      </DialogActions>
    </Dialog>
  );
}
