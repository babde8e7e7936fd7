import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { Onboarding } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { useOnboarding } from '../api';
import { mayOpenStep, noAccessPath, onboardingTarget, stepperHeaders } from '../steps';

interface OnboardingFrameProps {
  /** The step of this page, 1–5. */
  step: number;
  title: string;
  description: string;
  children: (onboarding: Onboarding) => ReactNode;
}

/**
 * The stepper of spec §2 Onboarding (or of another flow of the same steps, e.g. Add device).
 * `active` is 0-based; the length means "all done".
 */
export function OnboardingStepper({
  active,
  headers = stepperHeaders,
  label = 'Onboarding steps',
}: {
  active: number;
  headers?: readonly string[];
  label?: string;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3, borderRadius: 3, overflowX: 'auto' }}>
      <Stepper activeStep={active} alternativeLabel aria-label={label}>
        {headers.map((header, index) => (
          <Step key={header} completed={index < active}>
            <StepLabel>{header}</StepLabel>
          </Step>
        ))}
      </Stepper>
    </Paper>
  );
}

/**
 * One onboarding step: page heading, stepper, and the step's form once the saved state is loaded.
 * A step not reached yet sends the user to the step they are on; a user who may not create a
 * workspace and has none goes to /onboarding/no-access.
 */
export function OnboardingFrame({ step, title, description, children }: OnboardingFrameProps) {
  const onboarding = useOnboarding();
  const data = onboarding.data;

  let body: ReactNode;
  if (onboarding.error && !data) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void onboarding.mutate()}>
            Retry
          </Button>
        }
      >
        Your onboarding could not be loaded. {onboarding.error.message}
      </Alert>
    );
  } else if (!data) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 4 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading your onboarding…</Typography>
      </Stack>
    );
  } else if (!data.mayCreateWorkspace && data.workspaceCount === 0) {
    return <Navigate to={noAccessPath} replace />;
  } else if (!mayOpenStep(step, data)) {
    return <Navigate to={onboardingTarget(data)} replace />;
  } else {
    body = children(data);
  }

  return (
    <Page title={title} section="Onboarding" description={description}>
      <OnboardingStepper active={step - 1} />
      <Box>{body}</Box>
    </Page>
  );
}
