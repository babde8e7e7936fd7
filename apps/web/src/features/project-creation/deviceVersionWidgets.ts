import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { DeviceVersionWidgets } from './components/DeviceVersionSteps';

// Interim until features/device-versions exports DeviceVersionChooser and NewDeviceVersionForm: the steps say
// plainly that versions cannot be chosen here yet (a project can take versions later, from its page).
const pending = 'Device versions cannot be chosen in the wizard yet. You can add them to the project later.';

export const deviceVersionWidgets: DeviceVersionWidgets = {
  Chooser: () => <Alert severity="info">{pending}</Alert>,
  NewForm: ({ onCancel }) => (
    <Alert
      severity="info"
      action={
        onCancel && (
          <Button color="inherit" size="small" onClick={onCancel}>
            Back
          </Button>
        )
      }
    >
      {pending}
    </Alert>
  ),
};
