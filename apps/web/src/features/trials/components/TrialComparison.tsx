import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TrialDetail } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { useTrial } from '../api';
import { compareOutcome } from '../compare';
import { outcomeText } from '../format';

/** Device CI: this trial's outcomes next to those of the trial it re-runs, per patient, with the differences. */
export function TrialComparison({ deviceId, trial }: { deviceId: string; trial: TrialDetail }) {
  const base = useTrial(deviceId, trial.projectId, trial.basedOnTrialId);
  const [outcome, setOutcome] = useState(trial.outcomes[0]?.key ?? '');
  const definition = trial.outcomes.find((o) => o.key === outcome);
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
      <Typography variant="h6" component="h2">
        Compared with the earlier version
      </Typography>
      {base.error ? (
        <LoadFailure what="The trial it re-runs" error={base.error} retry={() => void base.mutate()} />
      ) : !base.data ? (
        <Loading what="the trial it re-runs" />
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {base.data.name} ({base.data.deviceVersion.name}) → {trial.name} ({trial.deviceVersion.name})
          </Typography>
          <TextField select size="small" label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            {trial.outcomes.map((o) => (
              <MenuItem key={o.key} value={o.key}>
                {o.label} ({o.unit})
              </MenuItem>
            ))}
          </TextField>
          {definition && <ComparisonTable base={base.data} trial={trial} outcome={outcome} unit={definition.unit} />}
        </>
      )}
    </Paper>
  );
}

function ComparisonTable(props: { base: TrialDetail; trial: TrialDetail; outcome: string; unit: string }) {
  const { patients, meanDifference, paired } = compareOutcome(props.base, props.trial, props.outcome);
  return (
    <Table size="small" aria-label="Outcome per patient, both versions" sx={{ mt: 1 }}>
      <TableHead>
        <TableRow>
          <TableCell>Patient</TableCell>
          <TableCell align="right">
            {props.base.deviceVersion.name} ({props.unit})
          </TableCell>
          <TableCell align="right">
            {props.trial.deviceVersion.name} ({props.unit})
          </TableCell>
          <TableCell align="right">Difference ({props.unit})</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {patients.map((p) => (
          <TableRow key={p.patientId}>
            <TableCell>{p.patientId}</TableCell>
            <TableCell align="right">{outcomeText(p.base)}</TableCell>
            <TableCell align="right">{outcomeText(p.current)}</TableCell>
            <TableCell align="right">{outcomeText(p.difference)}</TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell colSpan={3}>
            <strong>Mean difference</strong> over {paired} {paired === 1 ? 'patient' : 'patients'} with both values
          </TableCell>
          <TableCell align="right">
            <strong>{outcomeText(meanDifference)}</strong>
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
