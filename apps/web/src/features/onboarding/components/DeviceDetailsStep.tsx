import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import { deviceTypes, type DeviceType, type Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { checkDeviceDetails, labelOf, type DeviceDetailsForm, type FieldErrors } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { StepActions } from './StepActions';

const step = 3;

function initialForm(onboarding: Onboarding): DeviceDetailsForm {
  const info = onboarding.state.deviceInfo;
  return {
    deviceName: info?.deviceName ?? '',
    deviceType: info?.deviceType ?? '',
    deviceTypeOther: info?.deviceTypeOther ?? '',
  };
}

/** Step 3: device name, type (Other needs its specification) and the picture (not available yet). */
export function DeviceDetailsStep({ onboarding }: { onboarding: Onboarding }) {
  const [saved] = useState(() => initialForm(onboarding));
  const [form, setForm] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors<keyof DeviceDetailsForm>>({});
  const dirty = (Object.keys(form) as (keyof DeviceDetailsForm)[]).some((key) => form[key] !== saved[key]);
  const leave = useLeaveConfirmation(dirty);
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  const set = (field: keyof DeviceDetailsForm, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkDeviceDetails(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    void save({ deviceInfo: checked.value });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <TextField
          label="Device name"
          required
          value={form.deviceName}
          onChange={(event) => set('deviceName', event.target.value)}
          error={Boolean(errors.deviceName)}
          helperText={errors.deviceName}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <TextField
          select
          label="Device type"
          required
          value={form.deviceType}
          onChange={(event) => {
            const type = event.target.value as DeviceType;
            set('deviceType', type);
            if (type !== 'other') set('deviceTypeOther', '');
          }}
          error={Boolean(errors.deviceType)}
          helperText={errors.deviceType}
        >
          {deviceTypes.map((type) => (
            <MenuItem key={type} value={type}>
              {labelOf(type)}
            </MenuItem>
          ))}
        </TextField>
        {form.deviceType === 'other' && (
          <TextField
            label="Specify the device type"
            required
            value={form.deviceTypeOther}
            onChange={(event) => set('deviceTypeOther', event.target.value)}
            error={Boolean(errors.deviceTypeOther)}
            helperText={errors.deviceTypeOther}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        )}
        <Stack spacing={1}>
          <Typography variant="subtitle2" component="p">
            Device picture
          </Typography>
          <Button
            variant="outlined"
            disabled
            startIcon={<PhotoCameraOutlinedIcon aria-hidden="true" />}
            sx={{ alignSelf: 'flex-start' }}
            aria-describedby="device-picture-note"
          >
            Upload a picture
          </Button>
          <Alert severity="info" id="device-picture-note">
            Uploading a device picture is not available yet. You will be able to add one (jpg, jpeg or png, at most 5MB)
            under Manage device once it is.
          </Alert>
        </Stack>
      </Stack>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
