import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SettingsForm } from '../useSettingsForm';

/** The end of a settings form: the refusal, Save (while something changed), the saved notice, Stay/Leave. */
export function FormFooter<F extends object>({ state }: { state: SettingsForm<F> }) {
  return (
    <>
      {state.saveError && <Alert severity="error">{state.saveError}</Alert>}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={!state.dirty || state.saving}
          startIcon={state.saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          Save
        </Button>
        {state.dirty && (
          <Typography variant="body2" color="text.secondary">
            You have unsaved changes.
          </Typography>
        )}
      </Stack>
      <Snackbar
        open={state.notice !== null}
        autoHideDuration={4000}
        onClose={() => state.setNotice(null)}
        message={state.notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
      {state.leave.dialog}
    </>
  );
}
