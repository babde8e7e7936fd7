import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  imagingStatusLabels,
  InterruptedUpload,
  UploadPanel,
  useImagingDatasets,
  usePendingUpload,
  type UploadSource,
} from '../../uploads';
import { useWizard } from '../wizardContext';
import { withImagingDataset } from '../wizardState';

/**
 * The creator's imaging datasets in no project yet, ticked when in the draft's `uploadedImagingData` (uploaded in
 * this wizard, or chosen here) (the draft's `uploadedImagingData`), which become imaging cohorts of
 * the project, and an upload the wizard started that was interrupted (closed tab): resumed here.
 */
export function UploadedImagingData() {
  const { deviceId, userId, draft, change, save } = useWizard();
  const datasets = useImagingDatasets(deviceId);
  const interrupted = usePendingUpload(userId, deviceId, 'wizard');
  const [resuming, setResuming] = useState(false);
  const found = interrupted.found;
  const source = useMemo<UploadSource | null>(
    () =>
      resuming && found
        ? { zip: found.zip, name: found.pending.name, note: found.pending.note, resumePath: found.pending.uploadUrl }
        : null,
    [resuming, found],
  );
  const ids = draft.uploadedImagingData.data;
  const mine = (datasets.data?.items ?? []).filter(
    (dataset) =>
      dataset.projectId === null &&
      dataset.uploadedBy?.id === userId &&
      (ids.includes(dataset.id) || dataset.status !== 'refused'),
  );

  const toggle = (datasetId: string, on: boolean) => change((current) => withImagingDataset(current, datasetId, on));

  if (mine.length === 0 && !found) return null;
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h3" sx={{ fontSize: 18, mb: 1 }}>
        Your imaging data
      </Typography>
      {found && !source && (
        <InterruptedUpload
          pending={found.pending}
          onResume={() => setResuming(true)}
          onDiscarded={interrupted.reload}
        />
      )}
      {source && (
        <UploadPanel
          deviceId={deviceId}
          userId={userId}
          origin="wizard"
          source={source}
          onDataset={(dataset) => {
            setResuming(false);
            interrupted.reload();
            void datasets.mutate();
            void save((current) => withImagingDataset(current, dataset.id, true));
          }}
        />
      )}
      <Stack>
        {mine.map((dataset) => (
          <Stack key={dataset.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FormControlLabel
              control={
                <Checkbox checked={ids.includes(dataset.id)} onChange={(e) => toggle(dataset.id, e.target.checked)} />
              }
              label={`${dataset.name}${dataset.counts ? ` · ${dataset.counts.patients} patients` : ''}`}
            />
            <Chip
              size="small"
              color={dataset.status === 'refused' ? 'error' : 'default'}
              label={imagingStatusLabels[dataset.status]}
            />
          </Stack>
        ))}
      </Stack>
      {mine.some((dataset) => dataset.status === 'refused' && ids.includes(dataset.id)) && (
        <Alert severity="error" sx={{ mt: 1 }}>
          A refused dataset cannot join the project: untick it, and upload the images again.
        </Alert>
      )}
    </Box>
  );
}
