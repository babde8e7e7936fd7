import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { trialNameMaxLength, type TrialDetail } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { ApiError } from '../../../lib/apiError';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const version = versionId || others[0]?.id || '';
  const versionName = others.find((v) => v.id === version)?.name ?? '';
  const shownName = name || `${trial.name} on ${versionName}`.slice(0, trialNameMaxLength);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onCreated(await rerunTrial(deviceId, trial.projectId, trial.id, { versionId: version, name: shownName }));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The trial could not be started. Please try again.');
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : props.onClose} maxWidth="sm" fullWidth aria-labelledby="rerun-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="rerun-title">Re-run on another version</DialogTitle>
        <DialogContent>
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
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !version || shownName.trim() === ''}>
            Start trial
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
