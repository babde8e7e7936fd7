import { useState } from 'react';
import { analysisMinPatients, type Analysis, type Project } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/apiError';
import { createAnalysis } from '../api';

/** Parameters a new analysis starts with: the aortic root sizing set and body size (all can be changed after). */
export const defaultAnalysisParameters = [
  'aorticAnnulusPerimeter_mm',
  'aorticAnnulusArea_mm2',
  'aorticAnnulusDiameter_mm',
  'lvotDiameter_mm',
  'sinusOfValsalvaDiameter_mm',
  'height_cm',
  'weight_kg',
];

interface NewAnalysisFormProps {
  deviceId: string;
  project: Project;
  onCreated: (analysis: Analysis) => void;
  onCancel?: () => void;
}

/** Starts an analysis on one of the project's ready cohorts. */
export function NewAnalysisForm({ deviceId, project, onCreated, onCancel }: NewAnalysisFormProps) {
  const ready = project.cohorts.filter((cohort) => cohort.status === 'ready');
  const [cohortId, setCohortId] = useState(ready[0]?.id ?? '');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = ready.find((cohort) => cohort.id === cohortId);

  if (project.cohorts.length === 0)
    return <Alert severity="info">This project has no patient cohort yet. Add one to the project to analyse it.</Alert>;
  if (ready.length === 0)
    return (
      <Alert severity="info">
        The project’s cohorts are still being prepared. You get a notification when they are ready.
      </Alert>
    );

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      onCreated(await createAnalysis(deviceId, project.id, { cohortId, name, parameters: defaultAnalysisParameters }));
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The analysis could not be created.');
      setBusy(false);
    }
  };

  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      aria-label="New analysis"
      sx={{ maxWidth: 560 }}
    >
      <TextField
        select
        label="Patient cohort"
        value={cohortId}
        onChange={(event) => setCohortId(event.target.value)}
        required
      >
        {project.cohorts.map((cohort) => (
          <MenuItem key={cohort.id} value={cohort.id} disabled={cohort.status !== 'ready'}>
            {cohort.name} ({cohort.size} patients{cohort.status === 'ready' ? '' : ', being prepared'})
          </MenuItem>
        ))}
      </TextField>
      {chosen && chosen.size < analysisMinPatients && (
        <Typography color="text.secondary">
          Statistical analysis needs at least {analysisMinPatients} patients; this cohort has {chosen.size}. You can
          save the analysis, but it shows numbers only for {analysisMinPatients} or more patients.
        </Typography>
      )}
      <TextField
        label="Name (optional)"
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={busy || !cohortId}>
          {busy ? 'Starting…' : 'Start analysis'}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </Stack>
    </Stack>
  );
}
