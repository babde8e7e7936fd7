import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { roleRefusalMessages } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCohortDevice } from '../hooks/useCohortDevice';

/**
 * Loading, error and "no workspace" states of the cohort pages; renders `children` with the workspace id.
 * `refuseGuests` (the order pages): a guest is told at once that they cannot order, instead of filling in the form
 * and learning it from the server's refusal at the bottom.
 */
export function CohortWorkspace({
  children,
  refuseGuests = false,
}: {
  children: (deviceId: string) => ReactNode;
  refuseGuests?: boolean;
}) {
  const { deviceId, role, loading, error } = useCohortDevice();
  if (error) return <Alert severity="error">Your workspace could not be loaded. {error}</Alert>;
  if (loading)
    return (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} aria-hidden="true" />
        <Typography color="text.secondary">Loading your workspace…</Typography>
      </Stack>
    );
  if (!deviceId)
    return (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/onboarding/body-part" color="inherit" size="small">
            Set up a workspace
          </Button>
        }
      >
        Patient cohorts belong to a device workspace. Set one up first.
      </Alert>
    );
  if (refuseGuests && role === 'guest') return <Alert severity="warning">{roleRefusalMessages.cohortOrder}</Alert>;
  return <>{children(deviceId)}</>;
}

/** A spinner with a text, for sections that load. */
export function Loading({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={20} aria-hidden="true" />
      <Typography color="text.secondary">{text}</Typography>
    </Stack>
  );
}
