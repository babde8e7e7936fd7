import type { ComponentType } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { DeviceVersionChooserProps, NewDeviceVersionFormProps } from '../../device-versions';
import { useWizard } from '../wizardContext';
import { chosenVersions } from '../wizardState';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/**
 * The device-version widgets the wizard mounts, built by the device-versions feature (its `index.ts`): the routes
 * hand them in, so these pages depend only on the agreed props (`features/device-versions/props.ts`).
 */
export interface DeviceVersionWidgets {
  Chooser: ComponentType<DeviceVersionChooserProps>;
  NewForm: ComponentType<NewDeviceVersionFormProps>;
}

/** `/projects/create/device-version`: the device versions (3D models) the project tests. */
export function DeviceVersionStep({ widgets }: { widgets: DeviceVersionWidgets }) {
  const { deviceId, draft, change, go, saving } = useWizard();
  const { Chooser } = widgets;
  const chosen = chosenVersions(draft);

  return (
    <div>
      <StepHeading title="Device version">
        Choose the versions of the device to test, or upload a new one as .stl files. A new version is processed in the
        background and added to the project once it is ready; you are notified then.
      </StepHeading>
      <Button variant="outlined" sx={{ mb: 2 }} onClick={() => void go('new-device-version')} disabled={saving}>
        New device version
      </Button>
      <Chooser
        deviceId={deviceId}
        value={chosen}
        highlightIds={draft.newDeviceVersions}
        disabled={saving}
        onChange={(ids) =>
          change((current) => ({
            ...current,
            existingDeviceVersionsSelected: ids.filter((id) => !current.newDeviceVersions.includes(id)),
            newDeviceVersions: current.newDeviceVersions.filter((id) => ids.includes(id)),
          }))
        }
      />
      {chosen.length === 0 && (
        <Alert severity="info" sx={{ mt: 2 }}>
          No device version chosen: you can add versions to the project later, from its page.
        </Alert>
      )}
      <StepActions onBack={() => void go('question-of-interest')} onNext={() => void go('team')} busy={saving} />
    </div>
  );
}

/** `/projects/create/new-device-version`: name, description and .stl files of a new version, uploaded resumably. */
export function NewDeviceVersionStep({ widgets }: { widgets: DeviceVersionWidgets }) {
  const { deviceId, draft, change, go, setPageDirty } = useWizard();
  const { NewForm } = widgets;
  return (
    <div>
      <StepHeading title="New device version">
        Name the version, describe what changed, and add its 3D model as one or more .stl files (binary or ASCII).
      </StepHeading>
      <NewForm
        deviceId={deviceId}
        initialDraft={draft.firstDeviceVersion ?? undefined}
        onDraftChange={(typed) => change({ firstDeviceVersion: typed })}
        onDirtyChange={setPageDirty}
        submitLabel="Create device version"
        onCancel={() => void go('device-version', { firstDeviceVersion: null })}
        onCreated={(version) => {
          setPageDirty(false);
          void go('device-version', (current) => ({
            ...current,
            firstDeviceVersion: null,
            newDeviceVersions: [...current.newDeviceVersions, version.id],
          }));
        }}
      />
    </div>
  );
}
