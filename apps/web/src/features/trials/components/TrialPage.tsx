import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
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
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import { placementRuleText, samePlacementRule, type TrialDetail } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import { useSelectedDevice } from '../../devices';
import { cancelTrial, deleteTrial, trialPath, trialUrls, useTrial } from '../api';
import { RerunTrialDialog } from './RerunTrialDialog';
import { RetryTrialDialog } from './RetryTrialDialog';
import { TrialAcceptance } from './TrialAcceptance';
import { TrialComparison } from './TrialComparison';
import { TrialCustomOutcomes } from './TrialCustomOutcomes';
import { TrialPopulation } from './TrialPopulation';
import { TrialReports } from './TrialReports';
import { countsText, etaText, outcomeText, patientStatusLabels, stageLabels, trialStatusLabels } from '../format';

/**
 * `/projects/trial?project=&trial=` (issue 17): a trial's progress (done, running, queued, failed, ETA), its
 * patients with their outcomes, why a patient failed, links to each patient's room and results, cancel (asked
 * first) and retry of the failed patients. Refreshed every 2 s while the trial runs.
 */
export function TrialPage() {
  const [params] = useSearchParams();
  const selected = useSelectedDevice();
  const projectId = params.get('project');
  const trialId = params.get('trial');
  const deviceId = params.get('device') ?? selected.data?.device?.deviceId ?? null;
  const trial = useTrial(deviceId, projectId, trialId);
  const [confirming, setConfirming] = useState(false);
  const [rerunning, setRerunning] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!projectId || !trialId)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        <Alert severity="info">Open a trial from the trial list on its project’s Rooms tab.</Alert>
      </Container>
    );
  if (!deviceId || trial.error || !trial.data)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        {trial.error ? (
          <LoadFailure what="The trial" error={trial.error} retry={() => void trial.mutate()} />
        ) : (
          <Loading what="the trial" />
        )}
      </Container>
    );

  const data = trial.data;
  const rooms = `/projects/view/rooms?${new URLSearchParams({ project: projectId, device: deviceId }).toString()}`;
  const act = async (action: () => Promise<TrialDetail>) => {
    setBusy(true);
    setError(null);
    try {
      await trial.mutate(await action(), { revalidate: false });
      setConfirming(false);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteTrial(deviceId, projectId, trialId);
      void navigate(rooms, { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
      setBusy(false);
    }
  };
  const retriable = data.counts.failed + data.counts.cancelled > 0;
  /** A patient's rule when a retry's correction left it other than the trial's now (null: the trial's). */
  const ruleOf = (p: TrialDetail['patients'][number]) =>
    p.placement && !samePlacementRule(p.placement, data.placement) ? p.placement : null;
  const earlierRule = data.patients.some((p) => ruleOf(p) !== null);
  const finished = data.counts.done + data.counts.failed + data.counts.cancelled;
  const eta = etaText(data.etaSeconds);

  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, md: 3 } }}>
      <Link component={RouterLink} to={rooms} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
        <ArrowBackIcon fontSize="small" /> Rooms and trials of the project
      </Link>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1">
          {data.name}
        </Typography>
        <Chip label={trialStatusLabels[data.status]} data-testid="trial-status" />
        <Box sx={{ flexGrow: 1 }} />
        {data.canRun && data.status === 'running' && (
          <Button color="error" variant="outlined" onClick={() => setConfirming(true)} disabled={busy}>
            Cancel trial
          </Button>
        )}
        {data.canRun && data.status !== 'running' && (
          <Button variant="outlined" disabled={busy} onClick={() => setRerunning(true)}>
            Re-run on another version
          </Button>
        )}
        {data.canRun && retriable && (
          <Button
            variant="contained"
            disabled={busy}
            onClick={() => {
              setError(null);
              setRetrying(true);
            }}
          >
            Retry failed and cancelled patients
          </Button>
        )}
        {data.canRun && (
          <Button
            color="error"
            variant="text"
            disabled={busy}
            onClick={() => {
              setError(null);
              setDeleting(true);
            }}
          >
            Delete trial
          </Button>
        )}
      </Stack>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {data.kind[0]!.toUpperCase() + data.kind.slice(1)} at the {data.resolution} resolution on{' '}
        <strong>{data.cohort?.name ?? `the named instances of ${data.ssm?.name ?? ''}`}</strong> with{' '}
        <strong>{data.deviceVersion.name}</strong>, snapped to the {placementRuleText(data.placement)} along its normal.
        Started {formatDate(data.createdAt)}
        {data.createdBy && ` by ${data.createdBy.name}`}.
        {earlierRule && ' A retry corrected the placement rule: patients placed before keep theirs, named with each.'}
      </Typography>
      {data.cohort?.source === 'imaging' && (
        <Box sx={{ mt: 1 }}>
          <PatientOriginLabel origin="imaging" />
        </Box>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}

      <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
        <Typography variant="h6" component="h2">
          Progress
        </Typography>
        <LinearProgress
          variant="determinate"
          value={data.counts.total ? (100 * finished) / data.counts.total : 0}
          sx={{ my: 1, height: 8 }}
          aria-label="Trial progress"
        />
        <Typography aria-live="polite">
          {countsText(data)}
          {eta && ` · ${eta}`}
        </Typography>
      </Paper>

      <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Patients and outcomes
          </Typography>
          <Button
            size="small"
            variant="outlined"
            href={trialUrls.csv(deviceId, projectId, trialId)}
            download
            startIcon={<DownloadIcon aria-hidden="true" />}
          >
            Download CSV
          </Button>
        </Stack>
        <TableContainer>
          <Table size="small" aria-label="Patients and outcomes">
            <TableHead>
              <TableRow>
                <TableCell>{data.ssm ? 'Instance' : 'Patient'}</TableCell>
                <TableCell>Status</TableCell>
                {data.outcomes.map((o) => (
                  <TableCell key={o.key} align="right">
                    <Tooltip title={o.description} describeChild>
                      <span>
                        {o.label} ({o.unit})
                      </span>
                    </Tooltip>
                  </TableCell>
                ))}
                <TableCell>Room</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.patients.map((p) => (
                <TableRow key={p.patientId}>
                  <TableCell>
                    {p.instance ? (
                      <>
                        {p.instance.name}
                        <Typography variant="caption" display="block" color="text.secondary">
                          {p.instance.shape === 'mean' ? 'mean shape' : `SD per mode ${p.instance.shape}`}
                        </Typography>
                      </>
                    ) : (
                      p.patientId
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360 }}>
                    {patientStatusLabels[p.status]}
                    {p.status === 'running' && p.simulationStatus === 'running' && ` ${Math.round(100 * p.progress)} %`}
                    {p.error && (
                      <Typography variant="caption" display="block" color="error">
                        {p.stage ? `${stageLabels[p.stage]}: ` : ''}
                        {p.error}
                      </Typography>
                    )}
                    {ruleOf(p) && (
                      <Typography variant="caption" display="block" color="text.secondary">
                        Placed by an earlier rule: {placementRuleText(ruleOf(p)!)}
                      </Typography>
                    )}
                  </TableCell>
                  {data.outcomes.map((o) => (
                    <TableCell key={o.key} align="right" title={p.outcomeNotes[o.key]}>
                      {outcomeText(p.outcomes?.[o.key])}
                    </TableCell>
                  ))}
                  <TableCell>
                    {p.roomId ? (
                      <Stack direction="row" spacing={1}>
                        <Link
                          component={RouterLink}
                          to={`/projects/room?${new URLSearchParams({ project: projectId, room: p.roomId, device: deviceId }).toString()}`}
                        >
                          Open room
                        </Link>
                        {p.simulationId && p.simulationStatus === 'completed' && (
                          <Link
                            component={RouterLink}
                            to={`/projects/room/analyses?${new URLSearchParams({ project: projectId, room: p.roomId, simulation: p.simulationId, device: deviceId }).toString()}`}
                          >
                            Results
                          </Link>
                        )}
                      </Stack>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      <TrialCustomOutcomes
        deviceId={deviceId}
        trial={data}
        onSaved={(next) => void trial.mutate(next, { revalidate: false })}
      />

      <TrialAcceptance
        key={`${data.id}:${data.outcomes.map((o) => o.key).join()}`}
        deviceId={deviceId}
        trial={data}
        onSaved={(next) => void trial.mutate(next, { revalidate: false })}
      />

      {data.ssm && <TrialPopulation deviceId={deviceId} trial={data} />}

      {data.basedOnTrialId && <TrialComparison deviceId={deviceId} trial={data} />}

      <TrialReports deviceId={deviceId} trial={data} />

      {rerunning && (
        <RerunTrialDialog
          deviceId={deviceId}
          trial={data}
          onClose={() => setRerunning(false)}
          onCreated={(next) => {
            setRerunning(false);
            void navigate(trialPath(deviceId, projectId, next.id));
          }}
        />
      )}

      {retrying && (
        <RetryTrialDialog
          deviceId={deviceId}
          trial={data}
          onClose={() => setRetrying(false)}
          onRetried={(next) => {
            setRetrying(false);
            void trial.mutate(next, { revalidate: false });
          }}
        />
      )}

      <ConfirmDialog
        open={confirming}
        title="Cancel the trial?"
        message="Runs that are queued or running stop; patients that are done keep their outcomes. You can retry the cancelled patients later."
        confirmLabel="Cancel trial"
        busy={busy}
        error={error}
        onConfirm={() => void act(() => cancelTrial(deviceId, projectId, trialId))}
        onCancel={() => setConfirming(false)}
      />

      <ConfirmDialog
        open={deleting}
        title={`Delete the trial ${data.name}?`}
        message={
          (data.status === 'running' ? 'Its queued and running simulations are cancelled. ' : '') +
          'Its outcomes leave the population analysis and its reports are deleted. The rooms and simulations it made stay in the Rooms tab. This cannot be undone.'
        }
        confirmLabel="Delete trial"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(false)}
      />
    </Container>
  );
}
