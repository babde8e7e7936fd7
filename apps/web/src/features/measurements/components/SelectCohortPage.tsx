import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { ssmPhaseLabels } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { CohortStatusChip, CohortWorkspace, useCohorts } from '../../cohorts';
import { useProjects } from '../../projects';
import { useSsms } from '../../ssm';
import { useMeasurementOrders } from '../api';
import { flowPath } from '../flow';
import { MeasurementSteps } from './MeasurementSteps';
import { MeasurementsGate } from './MeasurementsGate';

/** What can be measured, one per row, each with a Select link to the define step. */
function Choices({
  label,
  headers,
  rows,
}: {
  label: string;
  headers: string[];
  rows: { id: string; name: string; to: string; cells: ReactNode[] }[];
}) {
  return (
    <Paper variant="outlined">
      <Table aria-label={label}>
        <TableHead>
          <TableRow>
            {headers.map((h) => (
              <TableCell key={h}>{h}</TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              {row.cells.map((cell, i) => (
                <TableCell key={i}>{cell}</TableCell>
              ))}
              <TableCell align="right">
                <Button component={RouterLink} to={row.to} variant="contained" aria-label={`Measure ${row.name}`}>
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
    <Choices
      label="Ready patient cohorts"
      headers={['Cohort', 'Patients', 'Ordered']}
      rows={ready.map((c) => ({
        id: c.id,
        name: c.name,
        to: flowPath('define', { deviceId, cohortId: c.id }),
        cells: [
          <>
            <Typography sx={{ fontWeight: 600 }}>{c.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {c.criteriaSummary}
            </Typography>
          </>,
          c.size,
          formatDate(c.createdAt),
        ],
      }))}
    />
  );
}

const allProjects = { status: 'all', search: '' } as const;

/**
 * A project's ready shape models, to measure their mean and named instances instead of a cohort's patients (the
 * order freezes the shapes named when it is placed).
 */
function ShapeModels({ deviceId }: { deviceId: string }) {
  const [projectId, setProjectId] = useState('');
  const projects = useProjects(deviceId, allProjects);
  const ssms = useSsms(deviceId, projectId || null);
  const ready = (ssms.data?.items ?? []).filter((m) => m.status === 'ready');
  return (
    <Stack spacing={1} sx={{ mt: 4 }}>
      <Typography variant="h3" component="h2">
        Or a statistical shape model
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Its mean shape and its named instances (the rooms saved on its shapes) are measured, each as one row.
      </Typography>
      {projects.error && !projects.data ? (
        <Alert severity="error">The projects could not be loaded. {projects.error.message}</Alert>
      ) : (
        <TextField
          select
          label="Project"
          value={projectId}
          onChange={(e) => setProjectId(e.target.value)}
          sx={{ maxWidth: 420 }}
          helperText={projects.data?.items.length === 0 ? 'This workspace has no project yet.' : undefined}
        >
          {(projects.data?.items ?? []).map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {projectId && ssms.error && <Alert severity="error">{ssms.error.message}</Alert>}
      {projectId && !ssms.data && !ssms.error && (
        <Typography color="text.secondary">Loading the shape models…</Typography>
      )}
      {projectId && ssms.data && ready.length === 0 && (
        <Typography color="text.secondary">This project has no ready shape model.</Typography>
      )}
      {ready.length > 0 && (
        <Choices
          label="Ready shape models"
          headers={['Shape model', 'Phase', 'Built']}
          rows={ready.map((m) => ({
            id: m.id,
            name: m.name,
            to: flowPath('define', { deviceId, projectId, ssmId: m.id }),
            cells: [m.name, ssmPhaseLabels[m.configuration.phase], m.readyAt ? formatDate(m.readyAt) : ''],
          }))}
        />
      )}
    </Stack>
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
                    to={flowPath('order', {
                      deviceId,
                      cohortId: o.cohortId,
                      ssmId: o.ssm?.id ?? null,
                      projectId: o.ssm?.projectId ?? null,
                      orderId: o.id,
                    })}
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

/**
 * `/measurement/select-patient-cohort`: the ready cohorts to measure (or a project's ready shape models), and the
 * orders placed before.
 */
export function SelectCohortPage() {
  return (
    <Page
      section="Measurement"
      title="Select a patient cohort"
      description="Pick the cohort whose patients you want measured, or a shape model whose shapes you want measured."
    >
      <MeasurementSteps active={0} />
      <CohortWorkspace>
        {(deviceId) => (
          <MeasurementsGate deviceId={deviceId}>
            <Cohorts deviceId={deviceId} />
            <ShapeModels deviceId={deviceId} />
            <Orders deviceId={deviceId} />
          </MeasurementsGate>
        )}
      </CohortWorkspace>
    </Page>
  );
}
