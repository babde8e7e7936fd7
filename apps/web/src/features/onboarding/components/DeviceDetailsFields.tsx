import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { deviceTypes, type DeviceType } from '@insilico/contracts';
import { labelOf, type DeviceDetailsForm, type FieldErrors } from '../steps';

interface DeviceDetailsFieldsProps {
  form: DeviceDetailsForm;
  errors: FieldErrors<keyof DeviceDetailsForm>;
  onChange: (patch: Partial<DeviceDetailsForm>) => void;
}

/** Device name and type; the specification of Other appears when Other is chosen (onboarding, manage device). */
export function DeviceDetailsFields({ form, errors, onChange }: DeviceDetailsFieldsProps) {
  return (
    <>
      <TextField
        label="Device name"
        required
        value={form.deviceName}
        onChange={(event) => onChange({ deviceName: event.target.value })}
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
          onChange(type === 'other' ? { deviceType: type } : { deviceType: type, deviceTypeOther: '' });
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
          onChange={(event) => onChange({ deviceTypeOther: event.target.value })}
          error={Boolean(errors.deviceTypeOther)}
          helperText={errors.deviceTypeOther}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
      )}
    </>
  );
}
