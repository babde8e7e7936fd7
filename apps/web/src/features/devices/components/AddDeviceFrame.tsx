import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { countries, type Onboarding } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { OnboardingStepper, StepFlowContext, useOnboarding } from '../../onboarding';
import { useDevices } from '../api';
import {
  addDeviceFlow,
  addDeviceHeaders,
  addDevicePages,
  addDevicePath,
  addDeviceTarget,
  mayOpenAddDeviceStep,
  type AddDeviceStep,
} from '../addDeviceFlow';

interface AddDeviceFrameProps {
  step: AddDeviceStep;
  title: string;
  description: string;
  children: (onboarding: Onboarding) => ReactNode;
}

/** The company the new workspace takes from the selected one (there is no company step). */
function CompanyNote({ onboarding }: { onboarding: Onboarding }) {
  const company = onboarding.state.yourCompany;
  if (!company) return null;
  const country = countries.find((option) => option.code === company.country)?.name ?? company.country;
  return (
    <Alert severity="info" sx={{ mb: 3 }}>
      The new device workspace belongs to {company.companyName} ({company.city}, {country}), like the one you work in
      now. As its admin you can change this later under Company info.
    </Alert>
  );
}

/**
 * One Add device step: the onboarding's step component under this flow's routes, stepper and
 * Back/Next targets. Pages not reached yet send the user to the step they are on; a user without a
 * workspace of their own goes to /add-device, which points them to the onboarding.
 */
export function AddDeviceFrame({ step, title, description, children }: AddDeviceFrameProps) {
  const onboarding = useOnboarding();
  const devices = useDevices();
  const data = onboarding.data;
  const error = onboarding.error ?? devices.error;

  let body: ReactNode;
  if (error && (!data || !devices.data)) {
    const retry = () => {
      void onboarding.mutate();
      void devices.mutate();
    };
    body = <LoadFailure what="Your new device" error={error} retry={retry} />;
  } else if (!data || !devices.data) {
    body = <Loading what="your new device" />;
  } else if (!devices.data.items.some((device) => device.userStatus === 'ok') || !data.mayCreateWorkspace) {
    return <Navigate to={addDevicePath} replace />;
  } else if (!mayOpenAddDeviceStep(step, data.state)) {
    return <Navigate to={addDeviceTarget(data.state)} replace />;
  } else {
    body = (
      <>
        {step === 5 && <CompanyNote onboarding={data} />}
        {children(data)}
      </>
    );
  }

  return (
    <Page title={title} section="Add device" description={description}>
      <OnboardingStepper
        active={addDevicePages.findIndex((page) => page.step === step)}
        headers={addDeviceHeaders}
        label="Add device steps"
      />
      <StepFlowContext.Provider value={addDeviceFlow}>
        <Box>{body}</Box>
      </StepFlowContext.Provider>
    </Page>
  );
}
