import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { formatDate } from '../../../lib/formatDate';
import { trialPath, useTrials } from '../api';
import { countsText, etaText, trialStatusLabels } from '../format';
import { NewTrialDialog } from './NewTrialDialog';

/**
 * The project's trials (issue 17) at the foot of its Rooms tab, beside its simulations: each with its progress, and
 * "New trial" for people who may run simulations (docs/decisions/trials.md).
 */
export function ProjectTrials({ deviceId, projectId }: { deviceId: string; projectId: string }) {
  const trials = useTrials(deviceId, projectId);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          Trials of the project
        </Typography>
        {trials.data?.canRun && (
          <Button variant="contained" onClick={() => setCreating(true)}>
            New trial
          </Button>
        )}
      </Stack>
      {trials.error ? (
        <LoadFailure what="The trials" error={trials.error} retry={() => void trials.mutate()} />
      ) : !trials.data ? (
        <Loading what="the trials" />
      ) : trials.data.items.length === 0 ? (
        <Alert severity="info">
          No trial yet. A trial runs one simulation set-up on every patient of a cohort and collects its outcomes.
          {!trials.data.canRun && ' Members of the project team start trials.'}
        </Alert>
      ) : (
        <Table size="small" aria-label="Trials of the project">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Cohort</TableCell>
              <TableCell>Device version</TableCell>
              <TableCell>Status</TableCell>
              <TableCell sx={{ minWidth: 220 }}>Progress</TableCell>
              <TableCell>Created</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {trials.data.items.map((trial) => {
              const finished = trial.counts.done + trial.counts.failed + trial.counts.cancelled;
              const eta = etaText(trial.etaSeconds);
              return (
                <TableRow key={trial.id}>
                  <TableCell>
                    <Link component={RouterLink} to={trialPath(deviceId, projectId, trial.id)}>
                      {trial.name}
                    </Link>
                    <Typography variant="caption" display="block" color="text.secondary">
                      {trial.kind}, {trial.resolution}
                    </Typography>
                  </TableCell>
                  <TableCell>{trial.cohort?.name ?? `${trial.ssm?.name ?? ''} (shape model)`}</TableCell>
                  <TableCell>{trial.deviceVersion.name}</TableCell>
                  <TableCell>
                    <Chip size="small" label={trialStatusLabels[trial.status]} />
                  </TableCell>
                  <TableCell>
                    <LinearProgress
                      variant="determinate"
                      value={trial.counts.total ? (100 * finished) / trial.counts.total : 0}
                      aria-label={`Progress of ${trial.name}`}
                    />
                    <Typography variant="caption">
                      {countsText(trial)}
                      {eta && ` · ${eta}`}
                    </Typography>
                  </TableCell>
                  <TableCell>{formatDate(trial.createdAt)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      {creating && (
        <NewTrialDialog
          deviceId={deviceId}
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(trial) => {
            setCreating(false);
            void trials.mutate();
            void navigate(trialPath(deviceId, projectId, trial.id));
          }}
        />
      )}
    </Paper>
  );
}
