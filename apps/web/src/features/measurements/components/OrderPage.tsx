import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { MeasurementOrder } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import { CohortWorkspace, useCohorts } from '../../cohorts';
import { useSsm } from '../../ssm';
import {
  measurementUrls,
  orderMeasurements,
  orderMeasurementsOnShapes,
  useMeasurementDefinitions,
  useMeasurementOrder,
} from '../api';
import { flowPath, readFlow, subjectOf } from '../flow';
import { CorrectionDialog } from './CorrectionDialog';
import { Distribution } from './Distribution';
import { MeasurementSteps } from './MeasurementSteps';
import { MeasurementsGate } from './MeasurementsGate';

const decimals = (unit: string) => (unit === 'mm²' ? 0 : 1);

function Results({
  deviceId,
  order,
  onCorrected,
}: {
  deviceId: string;
  order: MeasurementOrder;
  onCorrected: (order: MeasurementOrder) => void;
}) {
  const [shown, setShown] = useState(0);
  const [correcting, setCorrecting] = useState<string | null>(null);
  const m = order.measurements[shown];
  const rows = order.ssm ? 'shapes' : 'patients';
  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h3" component="h2">
          Results: {order.patients.length} {rows} × {order.measurements.length} measurements
        </Typography>
        <Button variant="outlined" href={measurementUrls.csv(deviceId, order.id)} download>
          Download CSV
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 520 }}>
        <Table stickyHeader size="small" aria-label="Measurement results">
          <TableHead>
            <TableRow>
              <TableCell>{order.ssm ? 'Shape' : 'Patient'}</TableCell>
              {order.measurements.map((x) => (
                <TableCell key={x.definitionId} align="right">
                  {x.name} ({x.unit})
                </TableCell>
              ))}
              <TableCell>Corrected</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {order.patients.map((p) => (
              <TableRow key={p.patientId}>
                <TableCell>{p.patientId}</TableCell>
                {p.cells.map((c, i) => {
                  const unit = order.measurements[i]?.unit ?? 'mm';
                  return (
                    <TableCell
                      key={i}
                      align="right"
                      title={
                        c.failure ??
                        (c.corrected !== null && c.automatic !== null
                          ? `Automatic ${c.automatic.toFixed(decimals(unit))} ${unit}`
                          : undefined)
                      }
                    >
                      {c.value === null ? (
                        <Typography component="span" color="error" variant="body2">
                          Not measured
                        </Typography>
                      ) : (
                        `${c.value.toFixed(decimals(unit))}${c.corrected !== null ? ' *' : ''}`
                      )}
                    </TableCell>
                  );
                })}
                <TableCell>
                  {p.correction
                    ? `${p.correction.landmarks.join(', ').replaceAll('_', ' ')} by ${p.correction.by?.fullName ?? 'a former user'}, ${formatDate(p.correction.at)}`
                    : ''}
                </TableCell>
                <TableCell>
                  {/* An SSM's shapes are measured on the model's own landmarks: corrections are for patients. */}
                  {order.cohortId !== null && (
                    <Button
                      size="small"
                      onClick={() => setCorrecting(p.patientId)}
                      aria-label={`Correct ${p.patientId}`}
                    >
                      Correct
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="body2" color="text.secondary">
        * corrected by hand (the automatic value is kept: hover the cell). Not measured: hover the cell for the reason.
      </Typography>
      {correcting && order.cohortId !== null && (
        <CorrectionDialog
          deviceId={deviceId}
          order={{ ...order, cohortId: order.cohortId }}
          patientId={correcting}
          onClose={() => setCorrecting(null)}
          onCorrected={(next) => {
            setCorrecting(null);
            onCorrected(next);
          }}
        />
      )}
      {m && (
        <Stack spacing={1}>
          <Typography variant="h3" component="h2">
            Distribution
          </Typography>
          <TextField
            select
            label="Measurement"
            value={shown}
            onChange={(e) => setShown(Number(e.target.value))}
            sx={{ maxWidth: 420 }}
          >
            {order.measurements.map((x, i) => (
              <MenuItem key={x.definitionId} value={i}>
                {x.name}
              </MenuItem>
            ))}
          </TextField>
          <Distribution name={m.name} unit={m.unit} values={order.patients.map((p) => p.cells[shown]?.value ?? null)} />
        </Stack>
      )}
    </Stack>
  );
}

function Placed({ deviceId, orderId }: { deviceId: string; orderId: string }) {
  const order = useMeasurementOrder(deviceId, orderId);
  if (order.error && !order.data) return <Alert severity="error">{order.error.message}</Alert>;
  if (!order.data) return <Typography color="text.secondary">Loading the order…</Typography>;
  const o = order.data;
  if (o.status === 'failed') return <Alert severity="error">{o.error ?? 'The measurements could not be taken.'}</Alert>;
  if (o.status === 'in_progress')
    return (
      <Stack spacing={1} role="status">
        <Typography>
          Measuring the {o.ssm ? 'shapes' : 'patients'} of {o.cohortName}… You get a notification when the results are
          ready.
        </Typography>
        <LinearProgress variant="determinate" value={Math.round(o.progress * 100)} aria-label="Measurement progress" />
      </Stack>
    );
  return (
    <Results deviceId={deviceId} order={o} onCorrected={(next) => void order.mutate(next, { revalidate: false })} />
  );
}

function Review({ deviceId }: { deviceId: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const flow = readFlow(params);
  const subject = subjectOf(flow);
  const cohorts = useCohorts(subject?.kind === 'cohort' ? deviceId : null);
  const ssm = useSsm(deviceId, subject?.kind === 'ssm' ? subject.projectId : null, flow.ssmId);
  const definitions = useMeasurementDefinitions(deviceId);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const cohort = cohorts.data?.items.find((c) => c.id === flow.cohortId);
  const chosen = definitions.data?.items.filter((d) => flow.definitionIds.includes(d.id)) ?? [];
  if (!subject || flow.definitionIds.length === 0)
    return (
      <Alert severity="info">
        Choose a cohort (or a shape model) and its measurements first.{' '}
        <RouterLink to={flowPath('select-patient-cohort', { deviceId })}>Select a cohort</RouterLink>
      </Alert>
    );
  const model = ssm.data;
  const heading =
    subject.kind === 'cohort'
      ? cohort
        ? `${cohort.name}: ${cohort.size} patients`
        : 'Cohort'
      : model
        ? `${model.name}: the mean shape and its named instances`
        : 'Shape model';
  const send = async () => {
    setSending(true);
    setError(null);
    try {
      const order =
        subject.kind === 'cohort'
          ? await orderMeasurements(deviceId, subject.cohortId, flow.definitionIds)
          : await orderMeasurementsOnShapes(deviceId, subject.projectId, subject.ssmId, flow.definitionIds);
      void navigate(flowPath('order', { ...flow, deviceId, orderId: order.id }));
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The order could not be placed.');
    } finally {
      setSending(false);
    }
  };
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h3" component="h2">
          {heading}
        </Typography>
        <ul>
          {chosen.map((d) => (
            <li key={d.id}>
              {d.name} ({d.unit}, {d.phase})
              {model && d.phase !== model.configuration.phase
                ? ` — not taken: the shape model is built at ${model.configuration.phase}`
                : ''}
            </li>
          ))}
        </ul>
      </Paper>
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button component={RouterLink} to={flowPath('define', { ...flow, deviceId })}>
          Back
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={sending}>
          Order measurements
        </Button>
      </Stack>
    </Stack>
  );
}

/** `/measurement/order`: review and order; with `?order=` the order's progress, then its results. */
export function OrderPage() {
  const [params] = useSearchParams();
  const orderId = params.get('order');
  return (
    <Page section="Measurement" title={orderId ? 'Measurement results' : 'Order the measurement'}>
      <MeasurementSteps active={2} />
      <CohortWorkspace>
        {(deviceId) => (
          <MeasurementsGate deviceId={deviceId}>
            {orderId ? <Placed deviceId={deviceId} orderId={orderId} /> : <Review deviceId={deviceId} />}
          </MeasurementsGate>
        )}
      </CohortWorkspace>
    </Page>
  );
}
