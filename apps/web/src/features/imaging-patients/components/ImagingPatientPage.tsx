import { Suspense, useCallback, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { ImagingPatient } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import type { ApiError } from '../../../lib/apiError';
import { FactList, LazyAnatomyViewer, ORGAN_LABELS, ParameterTable, phaseTitle } from '../../cohorts';
import { useSelectedDevice } from '../../devices';
import { createImagingRoom, imagingPatientUrls, useImagingPatient } from '../api';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';

const section = 'Imaging cohorts';

function Loading({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
      <CircularProgress size={20} aria-hidden="true" />
      <Typography color="text.secondary">{text}</Typography>
    </Stack>
  );
}

const organLabel = (organ: string) => ORGAN_LABELS[organ as keyof typeof ORGAN_LABELS] ?? organ.replace(/_/g, ' ');

function Facts({ patient }: { patient: ImagingPatient }) {
  const facts: [string, string][] = [
    ['Source', `Your imaging data: ${patient.datasetName}, modelled by our staff`],
    ['Phases', patient.meshes.phases.map(phaseTitle).join(', ')],
    ['Surfaces', patient.meshes.organs.map(organLabel).join(', ')],
    ['Landmarks', patient.landmarks.length === 0 ? 'None' : patient.landmarks.map((l) => l.name).join(', ')],
  ];
  return <FactList facts={facts} />;
}

interface PatientAt {
  deviceId: string;
  projectId: string;
  datasetId: string;
  patientId: string;
}

function PatientDetails({ deviceId, projectId, datasetId, patientId }: PatientAt) {
  const navigate = useNavigate();
  const patient = useImagingPatient(deviceId, projectId, datasetId, patientId);
  const [creating, setCreating] = useState(false);
  const [roomError, setRoomError] = useState<string | null>(null);
  const meshUrl = useCallback(
    (phase: string) => imagingPatientUrls.mesh(deviceId, projectId, datasetId, patientId, phase),
    [deviceId, projectId, datasetId, patientId],
  );
  if (patient.error && !patient.data) return <Alert severity="error">{patient.error.message}</Alert>;
  if (!patient.data) return <Loading text="Loading the patient…" />;
  const data = patient.data;
  const openRoom = async () => {
    setCreating(true);
    setRoomError(null);
    try {
      const room = await createImagingRoom(deviceId, projectId, datasetId, patientId);
      void navigate(`/projects/room?${new URLSearchParams({ project: projectId, room: room.id, device: deviceId })}`);
    } catch (caught) {
      setRoomError((caught as ApiError).message);
      setCreating(false);
    }
  };
  return (
    <Stack spacing={2.5}>
      <Breadcrumbs>
        <Link
          component={RouterLink}
          to={`/projects/view/stats?${new URLSearchParams({ project: projectId, device: deviceId })}`}
        >
          Project
        </Link>
        <Link
          component={RouterLink}
          to={`/upload-images/success?${new URLSearchParams({ dataset: datasetId, device: deviceId })}`}
        >
          {data.datasetName}
        </Link>
        <Typography color="text.primary">{data.id}</Typography>
      </Breadcrumbs>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h2" component="h2">
          Patient {data.id}
        </Typography>
        <PatientOriginLabel origin="imaging" />
        <Box sx={{ flex: 1 }} />
        <Button
          variant="contained"
          onClick={() => void openRoom()}
          disabled={creating}
          startIcon={creating ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          New room on this patient
        </Button>
      </Stack>
      {roomError && (
        <Alert severity="error" role="alert">
          {roomError}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            3D preview of the delivered models
          </Typography>
          <Suspense fallback={<Loading text="Loading the 3D preview…" />}>
            <LazyAnatomyViewer phases={data.meshes.phases} organs={data.meshes.organs} meshUrl={meshUrl} />
          </Suspense>
        </Paper>
        <Stack spacing={2.5}>
          <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
            <Facts patient={data} />
          </Paper>
          <ParameterTable title="Measured on the models" parameters={data.parameters} />
          <Typography variant="body2" color="text.secondary">
            Only what the delivered surfaces show is known: de-identification removed age, sex and body size.
          </Typography>
        </Stack>
      </Box>
    </Stack>
  );
}

/** `/projects/imaging-patient?project=&dataset=&patient=&device=`: a patient of a project's imaging cohort. */
export function ImagingPatientPage() {
  const [params] = useSearchParams();
  const selected = useSelectedDevice();
  const deviceId = params.get('device') ?? selected.data?.device?.deviceId ?? null;
  const projectId = params.get('project');
  const datasetId = params.get('dataset');
  const patientId = params.get('patient');
  return (
    <Page section={section} title="Imaging patient">
      {!projectId || !datasetId || !patientId ? (
        <Alert severity="warning">The address names no patient of an imaging cohort.</Alert>
      ) : selected.error && !deviceId ? (
        <Alert severity="error">Your workspace could not be loaded. {selected.error.message}</Alert>
      ) : !deviceId ? (
        <Loading text="Loading your workspace…" />
      ) : (
        <PatientDetails deviceId={deviceId} projectId={projectId} datasetId={datasetId} patientId={patientId} />
      )}
    </Page>
  );
}
