import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { CohortStatusChip, CohortWorkspace, useCohorts } from '../../cohorts';
import { useMeasurementOrders } from '../api';
import { flowPath } from '../flow';
import { MeasurementSteps } from './MeasurementSteps';
import { MeasurementsGate } from './MeasurementsGate';

function Cohorts({ deviceId }: { deviceId: string }) {
  const cohorts = useCohorts(deviceId);
  if (cohorts.error && !cohorts.data)
    return <Alert severity="error">The patient cohorts could not be loaded. {cohorts.error.message}</Alert>;
  if (!cohorts.data) return <Typography color="text.secondary">Loading the patient cohorts…</Typography>;
  const ready = cohorts.data.items.filter((c) => c.status === 'ready');
  if (ready.length === 0)
    return (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/patient-cohort/create" color="inherit" size="small">
            Create a cohort
          </Button>
        }
      >
        Measurements are taken on the patients of a ready cohort. This workspace has none yet.
      </Alert>
    );
  return (
    <Paper variant="outlined">
      <Table aria-label="Ready patient cohorts">
        <TableHead>
          <TableRow>
            <TableCell>Cohort</TableCell>
            <TableCell>Patients</TableCell>
            <TableCell>Ordered</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {ready.map((c) => (
            <TableRow key={c.id}>
              <TableCell>
                <Typography sx={{ fontWeight: 600 }}>{c.name}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {c.criteriaSummary}
                </Typography>
              </TableCell>
              <TableCell>{c.size}</TableCell>
              <TableCell>{formatDate(c.createdAt)}</TableCell>
              <TableCell align="right">
                <Button
                  component={RouterLink}
                  to={flowPath('define', { deviceId, cohortId: c.id })}
                  variant="contained"
                  aria-label={`Measure ${c.name}`}
                >
                  Select
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}

function Orders({ deviceId }: { deviceId: string }) {
  const orders = useMeasurementOrders(deviceId);
  if (orders.error && !orders.data) return <Alert severity="warning">{orders.error.message}</Alert>;
  if (!orders.data || orders.data.items.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mt: 4 }}>
      <Typography variant="h3" component="h2">
        Measurement orders
      </Typography>
      <Paper variant="outlined">
        <Table aria-label="Measurement orders">
          <TableBody>
            {orders.data.items.map((o) => (
              <TableRow key={o.id}>
                <TableCell>{o.cohortName}</TableCell>
                <TableCell>{o.measurements.length} measurements</TableCell>
                <TableCell>{formatDate(o.createdAt)}</TableCell>
                <TableCell>
                  <CohortStatusChip status={o.status} />
                </TableCell>
                <TableCell align="right">
                  <Button
                    component={RouterLink}
                    to={flowPath('order', { deviceId, cohortId: o.cohortId, orderId: o.id })}
                  >
                    Results
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Paper>
    </Stack>
  );
}

/** `/measurement/select-patient-cohort`: the ready cohorts to measure, and the orders placed before. */
export function SelectCohortPage() {
  return (
    <Page
      section="Measurement"
      title="Select a patient cohort"
      description="Pick the cohort whose patients you want measured."
    >
      <MeasurementSteps active={0} />
      <CohortWorkspace>
        {(deviceId) => (
          <MeasurementsGate deviceId={deviceId}>
            <Cohorts deviceId={deviceId} />
            <Orders deviceId={deviceId} />
          </MeasurementsGate>
        )}
      </CohortWorkspace>
    </Page>
  );
}
