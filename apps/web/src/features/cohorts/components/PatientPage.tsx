import { Suspense, useCallback } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CohortPatient } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { cohortUrls, useCohortPatient } from '../api';
import { labelOf } from '../labels';
import { cohortListPath, cohortPath } from '../paths';
import { CohortWorkspace, Loading } from './CohortWorkspace';
import { LazyAnatomyViewer as AnatomyViewer } from './LazyAnatomyViewer';
import { FactList } from './FactList';
import { ParameterTable } from './ParameterTable';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';

function Demographics({ patient }: { patient: CohortPatient }) {
  const facts: [string, string][] = [
    ['Sex', labelOf('sex', patient.sex)],
    ['Age', `${patient.age} years`],
    ['Origin', `${labelOf('location', patient.originLocation)} · ${labelOf('ethnicity', patient.originEthnicity)}`],
    [
      'Pathologies',
      patient.pathologies.length === 0 ? 'None' : patient.pathologies.map((p) => labelOf('pathology', p)).join(', '),
    ],
    ['Imaging phases', patient.phases.map((p) => labelOf('phase', p)).join(', ')],
    ['LV hypertrophy', patient.lvHypertrophy ? 'Yes' : 'No'],
  ];
  return <FactList facts={facts} />;
}

function PatientDetails({ deviceId, cohortId, patientId }: { deviceId: string; cohortId: string; patientId: string }) {
  const patient = useCohortPatient(deviceId, cohortId, patientId);
  const meshUrl = useCallback(
    (phase: string) => cohortUrls.mesh(deviceId, cohortId, patientId, phase),
    [deviceId, cohortId, patientId],
  );
  if (patient.error && !patient.data) return <Alert severity="error">{patient.error.message}</Alert>;
  if (!patient.data) return <Loading text="Loading the patient…" />;
  const data = patient.data;
  return (
    <Stack spacing={2.5}>
      <Breadcrumbs>
        <Link component={RouterLink} to={cohortListPath}>
          Patient cohorts
        </Link>
        <Link component={RouterLink} to={cohortPath(deviceId, cohortId)}>
          Cohort
        </Link>
        <Typography color="text.primary">{data.id}</Typography>
      </Breadcrumbs>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h2" component="h2">
          Patient {data.id}
        </Typography>
        <PatientOriginLabel origin="synthetic" />
      </Stack>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            3D preview
          </Typography>
          <Suspense fallback={<Loading text="Loading the 3D preview…" />}>
            <AnatomyViewer phases={data.meshes.phases} organs={data.meshes.organs} meshUrl={meshUrl} />
          </Suspense>
        </Paper>
        <Stack spacing={2.5}>
          <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
            <Demographics patient={data} />
          </Paper>
          <ParameterTable title="Body" parameters={data.parameters.filter((p) => p.group === 'body')} />
          <ParameterTable title="Heart" parameters={data.parameters.filter((p) => p.group === 'cardiac')} />
        </Stack>
      </Box>
    </Stack>
  );
}

/** /patient-cohort/cohorts/:cohortId/patients/:patientId: parameters and the 3D preview of one patient. */
export function PatientPage() {
  const { cohortId = '', patientId = '' } = useParams();
  return (
    <Page section="Patient cohorts" title="Virtual patient">
      <CohortWorkspace>
        {(deviceId) => <PatientDetails deviceId={deviceId} cohortId={cohortId} patientId={patientId} />}
      </CohortWorkspace>
    </Page>
  );
}
