import { useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import { Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { useVersionsDevice } from '../hooks/useVersionsDevice';
import { deviceVersionPath, deviceVersionsPath } from '../paths';
import { NewDeviceVersionForm } from './NewDeviceVersionForm';

/** `/device-versions/new`: a version outside the project wizard; it opens the list with the new version. */
export function NewDeviceVersionPage() {
  const workspace = useVersionsDevice();
  const navigate = useNavigate();
  const [dirty, setDirty] = useState(false);
  const leave = useLeaveConfirmation(dirty);
  return (
    <Page
      title="New device version"
      section="Device versions"
      description="Name the version and add its 3D model files. The files are checked and measured in the background; you will get a notification when the version is ready."
    >
      {workspace.error ? (
        <Alert severity="error">{workspace.error}</Alert>
      ) : workspace.loading ? (
        <Loading what="the workspace" />
      ) : !workspace.deviceId ? (
        <Alert severity="info">Choose or create a device workspace first.</Alert>
      ) : !workspace.canCreate ? (
        <Alert severity="info">Only admins and members of the workspace can create device versions.</Alert>
      ) : (
        <NewDeviceVersionForm
          deviceId={workspace.deviceId}
          onDirtyChange={setDirty}
          onCancel={() => void navigate(deviceVersionsPath)}
          onCreated={(version) => {
            leave.allowNextNavigation();
            void navigate(deviceVersionPath(version.id));
          }}
        />
      )}
      {leave.dialog}
    </Page>
  );
}
