import { useEffect, useState } from 'react';
import { Link as RouterLink, Navigate, useLocation, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { Page } from '../../../components/Page';
import { useOnboarding } from '../api';
import { onboardingTarget, stepperHeaders } from '../steps';
import { OnboardingStepper } from './OnboardingFrame';

/** Seconds before the complete page goes to the workspace. */
export const completeCountdownSeconds = 5;

function deviceNameOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('deviceName' in state)) return null;
  return typeof state.deviceName === 'string' ? state.deviceName : null;
}

/** After the last step: the workspace exists; a visible countdown, then the workspace home. */
export function CompletePage() {
  const onboarding = useOnboarding();
  const location = useLocation();
  const navigate = useNavigate();
  const deviceName = deviceNameOf(location.state);
  const [seconds, setSeconds] = useState(completeCountdownSeconds);
  const hasWorkspace = deviceName !== null || (onboarding.data?.workspaceCount ?? 0) > 0;

  useEffect(() => {
    if (!hasWorkspace) return undefined;
    const timer = window.setInterval(() => setSeconds((left) => Math.max(left - 1, 0)), 1000);
    return () => window.clearInterval(timer);
  }, [hasWorkspace]);

  useEffect(() => {
    if (hasWorkspace && seconds === 0) void navigate('/', { replace: true });
  }, [hasWorkspace, seconds, navigate]);

  let body;
  if (hasWorkspace) {
    body = (
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 }, borderRadius: 3 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <CheckCircleOutlineIcon color="success" sx={{ fontSize: 44 }} aria-hidden="true" />
          <Typography variant="h3" component="h2">
            {deviceName ? `Your device workspace “${deviceName}” is ready` : 'Your device workspace is ready'}
          </Typography>
          <Typography role="timer" aria-live="polite" aria-atomic="true">
            Taking you to your workspace in {seconds} {seconds === 1 ? 'second' : 'seconds'}…
          </Typography>
          <Button component={RouterLink} to="/" replace variant="contained">
            Go to my workspace now
          </Button>
        </Stack>
      </Paper>
    );
  } else if (onboarding.error) {
    body = <Alert severity="error">Your onboarding could not be loaded. {onboarding.error.message}</Alert>;
  } else if (!onboarding.data) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading…</Typography>
      </Stack>
    );
  } else {
    // Nothing was completed: back to the step the user is on.
    return <Navigate to={onboardingTarget(onboarding.data)} replace />;
  }

  return (
    <Page title="Onboarding complete" section="Onboarding">
      <OnboardingStepper active={stepperHeaders.length} />
      {body}
    </Page>
  );
}
