import type { FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { countries, usStates, type Device } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { checkCompany, CompanyFields } from '../../onboarding';
import { deviceKey, saveDevice } from '../api';
import { companyFormOf } from '../forms';
import { useSettingsForm } from '../useSettingsForm';
import { DetailList } from './DetailList';
import { FormFooter } from './FormFooter';
import { SelectedDevice } from './SelectedDevice';
import { SettingsSection } from './SettingsSection';

const onlyAdminsNote = 'Only an admin of this device can change the company info. Contact your device company admin.';

function nameOf(list: readonly { code: string; name: string }[], code: string | null): string {
  const found = list.find((entry) => entry.code === code);
  return found ? `${found.name} (${found.code})` : (code ?? '');
}

function CompanyEditor({ device }: { device: Device }) {
  const { mutate } = useSWRConfig();
  const state = useSettingsForm(() => companyFormOf(device));

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkCompany(state.form);
    if (!checked.ok) {
      state.setErrors(checked.errors);
      return;
    }
    void state.save(
      async () => {
        const updated = await saveDevice(device.deviceId, { company: checked.value });
        await mutate(deviceKey(device.deviceId), updated, { revalidate: false });
        return companyFormOf(updated);
      },
      'The company info is saved.',
      'The company info could not be saved. Please try again.',
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Company info">
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <CompanyFields form={state.form} errors={state.errors} onChange={state.set} />
        <FormFooter state={state} />
      </Stack>
    </form>
  );
}

function CompanyInfo({ device }: { device: Device }) {
  return (
    <SettingsSection title="Company">
      {device.isAdmin ? (
        <CompanyEditor device={device} />
      ) : (
        <Stack spacing={2.5}>
          <Alert severity="info">{onlyAdminsNote}</Alert>
          <DetailList
            items={[
              ['Company name', device.companyName],
              ['Country', nameOf(countries, device.country)],
              ...(device.countryState ? [['State', nameOf(usStates, device.countryState)] as const] : []),
              ['Street address', device.streetAddress],
              ['City', device.city],
              ['Zip code', device.zipCode],
            ]}
          />
        </Stack>
      )}
    </SettingsSection>
  );
}

/** /company-info (spec §2 Settings): the company behind the selected workspace; admins edit, others read. */
export function CompanyInfoPage() {
  return (
    <Page title="Company info" section="Settings">
      <SelectedDevice>{(device) => <CompanyInfo key={device.deviceId} device={device} />}</SelectedDevice>
    </Page>
  );
}
