import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useStepFlow } from '../stepFlow';

interface StepActionsProps {
  step: number;
  saving: boolean;
  /** The server's refusal (or a network failure). */
  error: string | null;
  nextLabel?: string;
}

/** Back and Next (a submit button of the step's form), and the server's message when it refused. */
export function StepActions({ step, saving, error, nextLabel = 'Next' }: StepActionsProps) {
  const back = useStepFlow().back(step);
  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'space-between' }}>
        {back ? (
          <Button component={RouterLink} to={back} variant="outlined">
            Back
          </Button>
        ) : (
          <span />
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={saving}
          startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          {saving ? 'Saving…' : nextLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
