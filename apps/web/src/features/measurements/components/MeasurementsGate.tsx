import type { ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { measurementsDisabledMessage, measurementsNotInPlanCode } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useMeasurementDefinitions } from '../api';

/**
 * Shows the spec's message (§8) with the ask-support drawer where the workspace's plan lacks measurements
 * (the server answers every measurement call with that refusal); otherwise the page.
 */
export function MeasurementsGate({ deviceId, children }: { deviceId: string; children: ReactNode }) {
  const definitions = useMeasurementDefinitions(deviceId);
  const [params] = useSearchParams();
  if (definitions.error?.code === measurementsNotInPlanCode) {
    const ask = new URLSearchParams(params);
    ask.set('drawer', 'ask-support');
    return (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to={`?${ask.toString()}`} color="inherit" size="small">
            Send us a message
          </Button>
        }
      >
        {measurementsDisabledMessage}
      </Alert>
    );
  }
  return <>{children}</>;
}
