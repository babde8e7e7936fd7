import { useState } from 'react';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { trialNameMaxLength, type TrialDetail } from '@insilico/contracts';
import { FormDialog } from '../../../components/FormDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { rerunTrial, useTrialSetup } from '../api';

/** Device CI: the trial's set-up on another device version, as a new trial compared with this one. */
export function RerunTrialDialog(props: {
  deviceId: string;
  trial: TrialDetail;
  onClose: () => void;
  onCreated: (trial: TrialDetail) => void;
}) {
  const { deviceId, trial } = props;
  const setup = useTrialSetup(deviceId, trial.projectId, true);
  const others = setup.data?.versions.filter((v) => v.id !== trial.deviceVersion.id) ?? [];
  const [versionId, setVersionId] = useState('');
  const [name, setName] = useState('');
  const version = versionId || others[0]?.id || '';
  const versionName = others.find((v) => v.id === version)?.name ?? '';
  const shownName = name || `${trial.name} on ${versionName}`.slice(0, trialNameMaxLength);

  const send = async () => {
    props.onCreated(await rerunTrial(deviceId, trial.projectId, trial.id, { versionId: version, name: shownName }));
  };
  return (
    <FormDialog
      title="Re-run on another version"
      submitLabel="Start trial"
      canSubmit={version !== '' && shownName.trim() !== ''}
      send={send}
      failure="The trial could not be started. Please try again."
      onClose={props.onClose}
    >
      {setup.error ? (
        <LoadFailure what="The device versions" error={setup.error} retry={() => void setup.mutate()} />
      ) : !setup.data ? (
        <Loading what="the device versions" />
      ) : others.length === 0 ? (
        <Alert severity="info">The project has no other ready device version yet.</Alert>
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField select label="Device version" value={version} onChange={(e) => setVersionId(e.target.value)}>
            {others.map((v) => (
              <MenuItem key={v.id} value={v.id}>
                {v.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Name"
            value={shownName}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { maxLength: trialNameMaxLength } }}
          />
        </Stack>
      )}
    </FormDialog>
  );
}
