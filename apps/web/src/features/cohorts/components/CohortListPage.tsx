import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { CohortSummary } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { useCohorts } from '../api';
import { cohortPath, createPath, measurementsPath } from '../paths';
import { useCohortDevice } from '../hooks/useCohortDevice';
import { CohortStatusChip } from './CohortStatusChip';
import { CohortWorkspace, Loading } from './CohortWorkspace';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';

function Status({ cohort }: { cohort: CohortSummary }) {
  return (
    <Stack spacing={0.5} sx={{ minWidth: 110 }}>
      <CohortStatusChip status={cohort.status} />
      {cohort.status === 'in_progress' && (
        <LinearProgress
          variant="determinate"
          value={Math.round(cohort.progress * 100)}
          aria-label={`Order of ${cohort.name}`}
        />
      )}
    </Stack>
  );
}

function CohortTable({ deviceId, mayOrder }: { deviceId: string; mayOrder: boolean }) {
  const cohorts = useCohorts(deviceId);
  if (cohorts.error && !cohorts.data)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void cohorts.mutate()}>
            Retry
          </Button>
        }
      >
        The patient cohorts could not be loaded. {cohorts.error.message}
      </Alert>
    );
  if (!cohorts.data) return <Loading text="Loading the patient cohorts…" />;
  if (cohorts.data.items.length === 0)
    return (
      <Paper variant="outlined" sx={{ p: 4, borderRadius: 2, textAlign: 'center' }}>
        <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
          No patient cohorts yet
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {mayOrder
            ? 'Order a cohort of synthetic virtual patients to test your device on.'
            : 'Cohorts of the projects you are on appear here.'}
        </Typography>
        {mayOrder && (
          <Button component={RouterLink} to={createPath} variant="contained" startIcon={<AddIcon aria-hidden="true" />}>
            Order a cohort
          </Button>
        )}
      </Paper>
    );
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 2 }}>
      <Table aria-label="Patient cohorts">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell align="right">Patients</TableCell>
            <TableCell>Criteria</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Created by</TableCell>
            <TableCell>Date</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {cohorts.data.items.map((cohort) => (
            <TableRow key={cohort.id} hover>
              <TableCell>
                <Link component={RouterLink} to={cohortPath(deviceId, cohort.id)} sx={{ fontWeight: 700 }}>
                  {cohort.name}
                </Link>
              </TableCell>
              <TableCell align="right">{cohort.size}</TableCell>
              <TableCell sx={{ maxWidth: 360 }}>
                <Typography variant="body2" color="text.secondary">
                  {cohort.criteriaSummary}
                </Typography>
              </TableCell>
              <TableCell>
                <Status cohort={cohort} />
              </TableCell>
              <TableCell>{cohort.createdBy?.fullName ?? 'Former member'}</TableCell>
              <TableCell>{formatDate(cohort.createdAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** /patient-cohort: the workspace's cohorts (name, size, criteria summary, status, created by, date). */
export function CohortListPage() {
  // Guests cannot order: no button that leads to a page that refuses them.
  const mayOrder = useCohortDevice().role !== 'guest';
  return (
    <Page
      section="Patient cohorts"
      title="Patient cohorts"
      description="Cohorts of synthetic virtual patients (CT-based; heart and thorax) ordered in this workspace."
      actions={
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <PatientOriginLabel origin="synthetic" size="medium" />
          {mayOrder && (
            <Button component={RouterLink} to={measurementsPath} variant="outlined">
              Measurements
            </Button>
          )}
          {mayOrder && (
            <Button
              component={RouterLink}
              to={createPath}
              variant="contained"
              startIcon={<AddIcon aria-hidden="true" />}
            >
              Order a cohort
            </Button>
          )}
        </Stack>
      }
    >
      <CohortWorkspace>{(deviceId) => <CohortTable deviceId={deviceId} mayOrder={mayOrder} />}</CohortWorkspace>
    </Page>
  );
}
