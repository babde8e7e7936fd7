import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  criterionText,
  meetsCriterion,
  outcomeValues,
  type TrialAcceptance,
  type TrialDetail,
} from '@insilico/contracts';
import { wilsonInterval } from '@insilico/stats';
import { ApiError } from '../../../lib/apiError';
import { updateTrial } from '../api';

type Draft = Record<string, { min: string; max: string }>;

const draftOf = (trial: TrialDetail): Draft =>
  Object.fromEntries(
    trial.outcomes.map((o) => {
      const c = trial.acceptance[o.key];
      return [
        o.key,
        { min: c?.min === null || !c ? '' : String(c.min), max: c?.max === null || !c ? '' : String(c.max) },
      ];
    }),
  );

/** The typed bounds as criteria: empty bounds are open, an outcome with both empty has none; null when not numbers. */
export function acceptanceOf(draft: Draft): TrialAcceptance | null {
  const acceptance: TrialAcceptance = {};
  for (const [key, { min, max }] of Object.entries(draft)) {
    const lo = min.trim() === '' ? null : Number(min);
    const hi = max.trim() === '' ? null : Number(max);
    if ((lo !== null && !Number.isFinite(lo)) || (hi !== null && !Number.isFinite(hi))) return null;
    if (lo !== null || hi !== null) acceptance[key] = { min: lo, max: hi };
  }
  return acceptance;
}

/**
 * A trial's acceptance criteria (bounds per outcome, e.g. pressure drop ≤ 20 mmHg) with each outcome's pass fraction
 * and 95 % Wilson interval, and device CI's switch: re-run on each new device version of the project. People who
 * may run trials edit; the server checks every bound.
 */
export function TrialAcceptance(props: {
  deviceId: string;
  trial: TrialDetail;
  onSaved: (trial: TrialDetail) => void;
}) {
  const { deviceId, trial, onSaved } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(trial));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = async (body: Parameters<typeof updateTrial>[3]) => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const next = await updateTrial(deviceId, trial.projectId, trial.id, body);
      onSaved(next);
      setDraft(draftOf(next));
      setSaved(true);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const acceptance = acceptanceOf(draft);
  // An SSM trial's instances are shapes chosen from the model, not a sample: counts without a population interval.
  const who = trial.ssm ? 'instance' : 'patient';
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
      <Typography variant="h6" component="h2">
        Acceptance criteria
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        A {who} passes an outcome when its value lies within the bounds (inclusive); leave a bound empty for none.
        {trial.ssm &&
          ' The instances are shapes you chose from the shape model, not a sample of patients: no population interval is given.'}
      </Typography>
      <Table size="small" aria-label="Acceptance criteria" sx={{ maxWidth: 900 }}>
        <TableHead>
          <TableRow>
            <TableCell>Outcome</TableCell>
            <TableCell>At least</TableCell>
            <TableCell>At most</TableCell>
            <TableCell>{trial.ssm ? 'Instances' : 'Patients'} that pass</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {trial.outcomes.map((o) => {
            const criterion = trial.acceptance[o.key];
            const values = outcomeValues(trial, o.key);
            const passed = criterion ? values.filter((v) => meetsCriterion(v, criterion)).length : 0;
            const w = criterion && values.length ? wilsonInterval(passed, values.length) : null;
            const pct = (f: number) => `${(100 * f).toFixed(0)} %`;
            return (
              <TableRow key={o.key}>
                <TableCell>
                  {o.label} ({o.unit})
                </TableCell>
                {(['min', 'max'] as const).map((bound) => (
                  <TableCell key={bound}>
                    <TextField
                      size="small"
                      type="number"
                      disabled={!trial.canRun || busy}
                      value={draft[o.key]?.[bound] ?? ''}
                      onChange={(e) =>
                        setDraft((d) => ({
                          ...d,
                          [o.key]: { min: d[o.key]?.min ?? '', max: d[o.key]?.max ?? '', [bound]: e.target.value },
                        }))
                      }
                      slotProps={{
                        htmlInput: { 'aria-label': `${o.label}: ${bound === 'min' ? 'at least' : 'at most'}` },
                      }}
                      sx={{ width: 130 }}
                    />
                  </TableCell>
                ))}
                <TableCell data-testid={`pass-${o.key}`}>
                  {!criterion
                    ? '—'
                    : w && trial.ssm
                      ? `${criterionText(criterion, o.unit)}: ${passed} of ${values.length} instances (${pct(w.fraction)})`
                      : w
                        ? `${criterionText(criterion, o.unit)}: ${passed} of ${values.length} (${pct(w.fraction)}, 95 % interval ${pct(w.lower)}–${pct(w.upper)})`
                        : `${criterionText(criterion, o.unit)}: no values yet`}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {saved && !error && (
        <Alert severity="success" sx={{ mt: 1 }}>
          Saved.
        </Alert>
      )}
      {trial.canRun && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2, alignItems: { sm: 'center' } }}>
          <Button
            variant="contained"
            disabled={busy || acceptance === null}
            onClick={() => acceptance && void save({ acceptance })}
          >
            Save criteria
          </Button>
          <FormControlLabel
            control={
              <Switch
                checked={trial.autoRerun}
                disabled={busy}
                onChange={(e) => void save({ autoRerun: e.target.checked })}
              />
            }
            label="Re-run automatically on each new device version of the project"
          />
        </Stack>
      )}
      {!trial.canRun && trial.autoRerun && (
        <Typography sx={{ mt: 1 }}>
          This trial re-runs automatically on each new device version of the project.
        </Typography>
      )}
    </Paper>
  );
}
