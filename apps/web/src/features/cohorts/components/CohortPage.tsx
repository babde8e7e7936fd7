import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { useCohort } from '../api';
import { useCohortDevice } from '../hooks/useCohortDevice';
import { cohortListPath, measureCohortPath } from '../paths';
import { CohortStatusChip } from './CohortStatusChip';
import { CohortWorkspace, Loading } from './CohortWorkspace';
import { PatientsTable } from './PatientsTable';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';

function CohortDetails({ deviceId, cohortId }: { deviceId: string; cohortId: string }) {
  const cohort = useCohort(deviceId, cohortId);
  const { role } = useCohortDevice();
  if (cohort.error && !cohort.data)
    return (
      <Alert severity="error">
        {cohort.error.status === 404 ? 'This patient cohort does not exist in this workspace.' : cohort.error.message}
      </Alert>
    );
  if (!cohort.data) return <Loading text="Loading the patient cohort…" />;
  const data = cohort.data;
  const mayMeasure = role !== null && role !== 'guest' && data.status === 'ready';
  return (
    <Stack spacing={2.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h2" component="h2">
          {data.name}
        </Typography>
        <CohortStatusChip status={data.status} />
        <PatientOriginLabel origin="synthetic" />
        {mayMeasure && (
          <Button component={RouterLink} to={measureCohortPath(deviceId, cohortId)} variant="outlined" size="small">
            Measure this cohort
          </Button>
        )}
      </Stack>
      <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
        <Stack spacing={0.5}>
          <Typography variant="body2">
            {data.size} patients · ordered by {data.createdBy?.fullName ?? 'a former member'} on{' '}
            {formatDate(data.createdAt)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Criteria: {data.criteriaSummary}
          </Typography>
          {/* Which generator drew the patients: a recalibrated model is a new version, ordered cohorts keep theirs. */}
          <Typography variant="body2" color="text.secondary">
            Synthetic patients from population model {data.modelVersion}
          </Typography>
          {data.description && <Typography variant="body2">{data.description}</Typography>}
        </Stack>
      </Paper>
      {data.status === 'in_progress' && (
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
          <Typography sx={{ fontWeight: 700 }}>The cohort is being prepared</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {data.progressMessage ?? 'Waiting for a worker…'} You get a notification when it is ready.
          </Typography>
          <LinearProgress variant="determinate" value={Math.round(data.progress * 100)} aria-label="Order progress" />
        </Paper>
      )}
      {data.status === 'failed' && (
        <Alert severity="error">{data.error ?? 'The patients could not be prepared.'}</Alert>
      )}
      {data.status === 'ready' && <PatientsTable deviceId={deviceId} cohortId={cohortId} />}
    </Stack>
  );
}

/** /patient-cohort/cohorts/:cohortId: one cohort; its patients once it is ready. */
export function CohortPage() {
  const { cohortId = '' } = useParams();
  return (
    <Page section="Patient cohorts" title="Patient cohort">
      <Breadcrumbs sx={{ mb: 2 }}>
        <Link component={RouterLink} to={cohortListPath}>
          Patient cohorts
        </Link>
        <Typography color="text.primary">Cohort</Typography>
      </Breadcrumbs>
      <CohortWorkspace>{(deviceId) => <CohortDetails deviceId={deviceId} cohortId={cohortId} />}</CohortWorkspace>
      <Button component={RouterLink} to={cohortListPath} sx={{ mt: 3 }}>
        All patient cohorts
      </Button>
    </Page>
  );
}
