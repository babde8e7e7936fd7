import { useState, type FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import type { Onboarding } from '@insilico/contracts';
import { PictureUpload } from '../../../components/PictureUpload';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { pictureAtSize } from '../../../lib/pictureFile';
import { onboardingKey, removeOnboardingPicture, uploadOnboardingPicture } from '../api';
import { checkDeviceDetails, type DeviceDetailsForm, type FieldErrors } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { DeviceDetailsFields } from './DeviceDetailsFields';
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

/**
 * Step 3: device name, type (Other needs its specification) and an optional picture. The picture is
 * sent as soon as it is chosen and kept on the server until the workspace is created, which then
 * takes it as its device picture (docs/decisions/pictures.md).
 */
export function DeviceDetailsStep({ onboarding }: { onboarding: Onboarding }) {
  const { mutate } = useSWRConfig();
  const [saved] = useState(() => initialForm(onboarding));
  const [form, setForm] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors<keyof DeviceDetailsForm>>({});
  const dirty = (Object.keys(form) as (keyof DeviceDetailsForm)[]).some((key) => form[key] !== saved[key]);
  const leave = useLeaveConfirmation(dirty);
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  const set = (patch: Partial<DeviceDetailsForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as (keyof DeviceDetailsForm)[]) delete next[key];
      return next;
    });
  };

  async function picked(devicePicture: string | null) {
    await mutate<Onboarding>(onboardingKey, (current) => (current ? { ...current, devicePicture } : current), {
      revalidate: false,
    });
  }

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
        <DeviceDetailsFields form={form} errors={errors} onChange={set} />
        <Stack spacing={1}>
          <Typography variant="subtitle2" component="p">
            Device picture (optional)
          </Typography>
          <PictureUpload
            label="Device picture"
            variant="rounded"
            size={88}
            pictureUrl={onboarding.devicePicture ? pictureAtSize(onboarding.devicePicture, 'thumb') : null}
            placeholder={<DevicesOtherOutlinedIcon fontSize="large" aria-hidden="true" />}
            onUpload={async (file) => picked((await uploadOnboardingPicture(file)).pictureUrl)}
            onRemove={async () => picked((await removeOnboardingPicture()).pictureUrl)}
          />
        </Stack>
      </Stack>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
