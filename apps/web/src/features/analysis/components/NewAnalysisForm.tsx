import { useState } from 'react';
import { analysisMinPatients, type Analysis, type ImagingCohort, type Project } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Loading } from '../../../components/LoadState';
import { ApiError } from '../../../lib/apiError';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { useImagingCohorts } from '../../imaging-patients';
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

/** A cohort the analysis may be about: virtual patients, or the delivered patients of the user's imaging data. */
interface CohortChoice {
  id: string;
  name: string;
  size: number;
  ready: boolean;
  source: 'virtual' | 'imaging';
  /** What a new analysis starts with. */
  parameters: string[];
}

/** The parameters measured on every delivered patient of an imaging cohort (what its analysis can use). */
export function imagingCohortParameters(cohort: ImagingCohort): string[] {
  const [first, ...others] = cohort.patients;
  if (!first) return [];
  return first.parameters
    .map((parameter) => parameter.key)
    .filter((key) => others.every((patient) => patient.parameters.some((parameter) => parameter.key === key)));
}

/** Starts an analysis on one of the project's ready cohorts: virtual ones and its imaging cohorts (issue 19). */
export function NewAnalysisForm({ deviceId, project, onCreated, onCancel }: NewAnalysisFormProps) {
  const imaging = useImagingCohorts(deviceId, project.id);
  const choices: CohortChoice[] = [
    ...project.cohorts.map((cohort) => ({
      id: cohort.id,
      name: cohort.name,
      size: cohort.size,
      ready: cohort.status === 'ready',
      source: 'virtual' as const,
      parameters: defaultAnalysisParameters,
    })),
    ...(imaging.data?.items ?? [])
      .filter((cohort) => cohort.status === 'modelling' || cohort.status === 'ready')
      .map((cohort) => ({
        id: cohort.datasetId,
        name: cohort.name,
        size: cohort.patients.length,
        ready: cohort.status === 'ready',
        source: 'imaging' as const,
        parameters: imagingCohortParameters(cohort),
      })),
  ];
  const ready = choices.filter((cohort) => cohort.ready);
  const [picked, setPicked] = useState<string | null>(null);
  const cohortId = picked ?? ready[0]?.id ?? '';
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = ready.find((cohort) => cohort.id === cohortId);

  if (!imaging.data && !imaging.error) return <Loading what="the project’s cohorts" />;
  if (choices.length === 0)
    return <Alert severity="info">This project has no patient cohort yet. Add one to the project to analyse it.</Alert>;
  if (ready.length === 0)
    return (
      <Alert severity="info">
        The project’s cohorts are still being prepared. You get a notification when they are ready.
      </Alert>
    );

  const submit = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      onCreated(await createAnalysis(deviceId, project.id, { cohortId, name, parameters: chosen.parameters }));
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
      {imaging.error && (
        <Alert severity="warning">
          The project’s imaging cohorts could not be loaded; its virtual cohorts are listed.
        </Alert>
      )}
      <TextField
        select
        label="Patient cohort"
        value={cohortId}
        onChange={(event) => setPicked(event.target.value)}
        required
      >
        {choices.map((cohort) => (
          <MenuItem key={cohort.id} value={cohort.id} disabled={!cohort.ready}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <span>
                {cohort.name} ({cohort.ready ? `${cohort.size} patients` : 'being prepared'})
              </span>
              <PatientOriginLabel origin={cohort.source === 'imaging' ? 'imaging' : 'synthetic'} />
            </Stack>
          </MenuItem>
        ))}
      </TextField>
      {chosen?.source === 'imaging' && (
        <Typography color="text.secondary">
          These are your own imaging data: the analysis uses what was measured on the delivered surfaces of every
          patient ({chosen.parameters.length} parameters), not the virtual patients’ anatomy.
        </Typography>
      )}
      {chosen?.source === 'imaging' && chosen.parameters.length === 0 && (
        <Alert severity="warning">
          Nothing was measured on every patient of this cohort (no surface delivered for all of them), so there is
          nothing to analyse.
        </Alert>
      )}
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
        <Button type="submit" variant="contained" disabled={busy || !chosen || chosen.parameters.length === 0}>
          {busy ? 'Starting…' : 'Start analysis'}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </Stack>
    </Stack>
  );
}
