import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiError } from '../lib/apiError';

/** While a page loads what it shows. */
export function Loading({ what }: { what: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
      <CircularProgress size={22} aria-hidden="true" />
      <Typography color="text.secondary">Loading {what}…</Typography>
    </Stack>
  );
}

/** What a page shows could not be loaded: the reason and Retry. */
export function LoadFailure({ what, error, retry }: { what: string; error: ApiError; retry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={retry}>
          Retry
        </Button>
      }
    >
      {what} could not be loaded. {error.message}
    </Alert>
  );
}
