import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { useDevices } from '../../devices';
import { onboardingTarget, useOnboarding } from '../../onboarding';

function Loading() {
  return (
    <Container maxWidth="lg" sx={{ py: 5 }}>
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading your workspace…</Typography>
      </Stack>
    </Container>
  );
}

function Failure({ message, retry }: { message: string; retry: () => void }) {
  return (
    <Container maxWidth="lg" sx={{ py: 5 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={retry}>
            Retry
          </Button>
        }
      >
        Your workspaces could not be loaded. {message}
      </Alert>
    </Container>
  );
}

/** Without a workspace: the onboarding step the user is on (or /onboarding/no-access). */
function ToOnboarding() {
  const onboarding = useOnboarding();
  if (onboarding.data) return <Navigate to={onboardingTarget(onboarding.data)} replace />;
  if (onboarding.error) return <Failure message={onboarding.error.message} retry={() => void onboarding.mutate()} />;
  return <Loading />;
}

/**
 * The workspace home needs a workspace: a signed-in user with none is sent to the onboarding;
 * one whose only workspaces wait for an admin's approval is told so.
 */
export function RequireWorkspace({ children }: { children: ReactNode }) {
  const devices = useDevices();
  if (devices.error && !devices.data)
    return <Failure message={devices.error.message} retry={() => void devices.mutate()} />;
  if (!devices.data) return <Loading />;
  const items = devices.data.items;
  if (items.length === 0) return <ToOnboarding />;
  if (!items.some((device) => device.userStatus === 'ok')) {
    return (
      <Page title="Waiting for approval" section="Workspace">
        <Alert severity="info">
          You have joined {items.map((device) => `“${device.deviceName}”`).join(', ')}. An admin of the device workspace
          still has to accept you; you can start working once they have.
        </Alert>
      </Page>
    );
  }
  return children;
}
