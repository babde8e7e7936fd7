import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { Device } from '@insilico/contracts';
import { useSelectedDevice } from '../../devices';
import { useDevice } from '../api';
import { LoadFailure, Loading } from './LoadState';

/**
 * The selected workspace's details for a settings page (/manage-device, /company-info): loading and
 * failure states, and a way to the onboarding for a user without a workspace.
 */
export function SelectedDevice({ children }: { children: (device: Device) => ReactNode }) {
  const selected = useSelectedDevice();
  const deviceId = selected.data?.device?.deviceId ?? null;
  const device = useDevice(deviceId);

  if (selected.error && !selected.data)
    return <LoadFailure what="Your workspace" error={selected.error} retry={() => void selected.mutate()} />;
  if (!selected.data) return <Loading what="your workspace" />;
  if (!deviceId)
    return (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/devices/setup" color="inherit" size="small">
            Set up a device
          </Button>
        }
      >
        You have no device workspace yet.
      </Alert>
    );
  if (device.error && !device.data) {
    if (device.error.status === 403 || device.error.status === 404)
      return <Alert severity="warning">{device.error.message}</Alert>;
    return <LoadFailure what="The device" error={device.error} retry={() => void device.mutate()} />;
  }
  if (!device.data) return <Loading what="the device" />;
  return children(device.data);
}
