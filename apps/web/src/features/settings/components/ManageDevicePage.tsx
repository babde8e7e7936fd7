import { useState, type FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import { dataRegions, type DataRegion, type Device, type UpdateDevice } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { PictureUpload } from '../../../components/PictureUpload';
import { formatDate } from '../../../lib/formatDate';
import { labelOf } from '../../../lib/labels';
import { pictureAtSize } from '../../../lib/pictureFile';
import { devicesKey, selectedDeviceKey } from '../../devices';
import {
  checkDeviceDetails,
  DevelopmentStageFields,
  developmentStagesError,
  DeviceDetailsFields,
} from '../../onboarding';
import { deviceKey, removeDevicePicture, saveDevice, uploadDevicePicture } from '../api';
import { manageDeviceFormOf } from '../forms';
import { useSettingsForm } from '../useSettingsForm';
import { DetailList } from './DetailList';
import { FormFooter } from './FormFooter';
import { SelectedDevice } from './SelectedDevice';
import { SettingsSection } from './SettingsSection';

export const regionLabels: Record<DataRegion, string> = { eu: 'European Union (EU)', us: 'United States (US)' };

/** Non-admins see the details; the server refuses their changes anyway. */
export const onlyAdminsNote =
  'Only an admin of this device can change these details. Contact your device company admin.';

function typeOf(device: Device): string {
  return device.deviceType === 'other' && device.deviceTypeOther
    ? `Other: ${device.deviceTypeOther}`
    : labelOf(device.deviceType);
}

/** After a change: the page, the workspace switcher and the home read the device again. */
function useRefreshDevice(deviceId: string) {
  const { mutate } = useSWRConfig();
  return () => Promise.all([mutate(deviceKey(deviceId)), mutate(devicesKey), mutate(selectedDeviceKey)]);
}

function DevicePicture({ device }: { device: Device }) {
  const refresh = useRefreshDevice(device.deviceId);
  const pictureUrl = device.devicePicture ? pictureAtSize(device.devicePicture, 'thumb') : null;
  const placeholder = <DevicesOtherOutlinedIcon fontSize="large" aria-hidden="true" />;
  if (!device.isAdmin)
    return <PictureUpload label="Device picture" variant="rounded" pictureUrl={pictureUrl} placeholder={placeholder} />;
  return (
    <PictureUpload
      label="Device picture"
      variant="rounded"
      pictureUrl={pictureUrl}
      placeholder={placeholder}
      onUpload={async (file) => {
        await uploadDevicePicture(device.deviceId, file);
        await refresh();
      }}
      onRemove={async () => {
        await removeDevicePicture(device.deviceId);
        await refresh();
      }}
    />
  );
}

/** The admin's form: name, type, development stages, data region (until the workspace holds data). */
function DeviceForm({ device }: { device: Device }) {
  const refresh = useRefreshDevice(device.deviceId);
  const state = useSettingsForm(() => manageDeviceFormOf(device));
  const [stagesProblem, setStagesProblem] = useState<string | null>(null);
  const { form } = state;

  function submit(event: FormEvent) {
    event.preventDefault();
    const details = checkDeviceDetails(form);
    const stages = developmentStagesError(form.developmentStages);
    state.setErrors(details.ok ? {} : details.errors);
    setStagesProblem(stages);
    if (!details.ok || stages) return;
    const changes: UpdateDevice = {
      deviceInfo: details.value,
      developmentStages: form.developmentStages,
      ...(form.dataRegion !== device.dataRegion ? { dataRegion: form.dataRegion } : {}),
    };
    void state.save(
      async () => {
        const updated = await saveDevice(device.deviceId, changes);
        await refresh();
        return manageDeviceFormOf(updated);
      },
      'The device details are saved.',
      'The device could not be saved. Please try again.',
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Device details">
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <DeviceDetailsFields form={form} errors={state.errors} onChange={state.set} />
        <DevelopmentStageFields
          legend="Development stages"
          value={form.developmentStages}
          problem={stagesProblem}
          onChange={(developmentStages) => {
            setStagesProblem(null);
            state.set({ developmentStages });
          }}
        />
        <TextField
          select
          label="Data region"
          value={form.dataRegion}
          onChange={(event) => state.set({ dataRegion: event.target.value as DataRegion })}
          disabled={!device.dataRegionChangeable}
          helperText={
            device.dataRegionChangeable
              ? 'Where the files of this workspace are kept. It can change until the workspace holds data.'
              : 'Fixed: this workspace already holds data.'
          }
        >
          {dataRegions.map((region) => (
            <MenuItem key={region} value={region}>
              {regionLabels[region]}
            </MenuItem>
          ))}
        </TextField>
        <FormFooter state={state} />
      </Stack>
    </form>
  );
}

function DeviceDetails({ device }: { device: Device }) {
  return (
    <Stack spacing={3}>
      <SettingsSection title="Device picture">
        <DevicePicture device={device} />
      </SettingsSection>
      <SettingsSection title="Device details">
        {device.isAdmin ? (
          <DeviceForm device={device} />
        ) : (
          <Stack spacing={2.5}>
            <Alert severity="info">{onlyAdminsNote}</Alert>
            <DetailList
              items={[
                ['Device name', device.deviceName],
                ['Device type', typeOf(device)],
                ['Body parts', device.bodyParts.map(labelOf).join(', ')],
                ['Development stages', device.deviceDevPhase.map(labelOf).join(', ')],
                ['Data region', regionLabels[device.dataRegion]],
                ['Created', formatDate(device.datetimeCreation)],
              ]}
            />
          </Stack>
        )}
      </SettingsSection>
    </Stack>
  );
}

/** /manage-device (spec §2 Settings): the selected workspace's device details and picture; admins edit. */
export function ManageDevicePage() {
  return (
    <Page title="Manage device" section="Settings">
      <SelectedDevice>{(device) => <DeviceDetails key={device.deviceId} device={device} />}</SelectedDevice>
    </Page>
  );
}
