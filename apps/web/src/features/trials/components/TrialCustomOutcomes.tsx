import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  customOutcomeDefinition,
  type CustomOutcome,
  type CustomOutcomeVersion,
  type TrialDetail,
} from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import { replaceCustomOutcomes } from '../api';
import { CustomOutcomesEditor } from './CustomOutcomesEditor';

/** An outcome being edited: the key it keeps (null: a new one) and its definition. */
export interface OutcomeEntry {
  key: string | null;
  definition: CustomOutcome;
}

/** The editor's next list as entries: each kept entry keeps its key by position, the removed index is dropped. */
export function nextEntries(
  entries: readonly OutcomeEntry[],
  next: readonly CustomOutcome[],
  removed?: number,
): OutcomeEntry[] {
  const kept = removed === undefined ? entries : entries.filter((_, i) => i !== removed);
  return next.map((definition, i) => ({ key: kept[i]?.key ?? null, definition }));
}

/** The trial's outcomes the draft takes out (by label, for the confirmation). */
export function removedOutcomes(trial: TrialDetail, entries: readonly OutcomeEntry[]): string[] {
  const keys = new Set(entries.map((e) => e.key));
  return trial.customOutcomes.filter((o) => !keys.has(o.key)).map((o) => o.definition.label);
}

/** "user_2, version 1: Mean displacement at the end (mm), until 28 Nov 2026" for the record of earlier versions. */
function versionText(kind: TrialDetail['kind'], v: CustomOutcomeVersion): string {
  const unit = customOutcomeDefinition(kind, v.definition, v.key).unit;
  return `${v.definition.label}${unit ? ` (${unit})` : ''}, version ${v.version}: ${formatDate(v.since)} – ${v.until ? formatDate(v.until) : 'now'}`;
}

/**
 * A trial's outcomes of the user's own after it ran (issue 17): people who may run trials add, change or remove them;
 * finished patients' values of new and changed definitions are read again from their saved outputs by the server
 * (progress here, a notification at the end), never simulated again. Values of earlier versions stay in the trial's
 * record, listed with the versions they came from. Removing asks first.
 */
export function TrialCustomOutcomes(props: {
  deviceId: string;
  trial: TrialDetail;
  onSaved: (trial: TrialDetail) => void;
}) {
  const { deviceId, trial, onSaved } = props;
  const [entries, setEntries] = useState<OutcomeEntry[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = trial.outcomeRefresh;
  const reading = refresh?.status === 'queued' || refresh?.status === 'running';
  const earlier = trial.customOutcomeHistory.filter((v) => v.until !== null);

  const edit = () => {
    setError(null);
    setEntries(trial.customOutcomes.map((o) => ({ key: o.key, definition: o.definition })));
  };
  const save = async () => {
    if (!entries) return;
    setBusy(true);
    setError(null);
    try {
      onSaved(await replaceCustomOutcomes(deviceId, trial.projectId, trial.id, { outcomes: entries }));
      setEntries(null);
      setConfirming(false);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  const removing = entries ? removedOutcomes(trial, entries) : [];

  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="section" aria-labelledby="own-outcomes-title">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" id="own-outcomes-title">
          Outcomes of your own
        </Typography>
        {trial.canRun && !entries && (
          <Button variant="outlined" size="small" onClick={edit} disabled={reading}>
            Change outcomes
          </Button>
        )}
      </Stack>
      {refresh && refresh.status !== 'completed' && (
        <div role="status" aria-live="polite">
          {reading && (
            <LinearProgress
              variant="determinate"
              value={100 * refresh.progress}
              sx={{ my: 1, height: 6 }}
              aria-label="Reading the changed outcomes"
            />
          )}
          <Typography variant="body2" color={refresh.status === 'failed' ? 'error' : 'text.secondary'}>
            {reading
              ? `Reading the changed outcomes from the saved outputs: ${refresh.message ?? 'queued'}.`
              : refresh.status === 'failed'
                ? 'The changed outcomes could not be read. Change them again to retry.'
                : 'The reading of the changed outcomes was stopped.'}
          </Typography>
        </div>
      )}
      {!entries && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {trial.customOutcomes.length === 0
            ? 'None yet. Outcomes you add are read from every finished patient’s saved outputs; nothing is simulated again.'
            : `${trial.customOutcomes.map((o) => `${o.definition.label} (version ${o.version})`).join(', ')}.`}
        </Typography>
      )}
      {entries && (
        <Stack spacing={1.5} sx={{ mt: 1 }}>
          <CustomOutcomesEditor
            kind={trial.kind}
            value={entries.map((e) => e.definition)}
            onChange={(next, removed) => setEntries(nextEntries(entries, next, removed))}
          />
          <Typography variant="body2" color="text.secondary">
            A changed source or reduction makes a new version of the outcome: finished patients are read again from
            their saved outputs, and the earlier values stay in the trial’s record.
          </Typography>
          {error && !confirming && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              disabled={busy}
              onClick={() => (removing.length > 0 ? setConfirming(true) : void save())}
            >
              Save outcomes
            </Button>
            <Button disabled={busy} onClick={() => setEntries(null)}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      )}
      {earlier.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            Earlier versions (their values are kept with each patient)
          </Typography>
          <ul aria-label="Earlier versions of your outcomes" style={{ margin: 0 }}>
            {earlier.map((v) => (
              <li key={`${v.key}@${v.version}`}>
                <Typography variant="body2">{versionText(trial.kind, v)}</Typography>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Remove ${removing.join(', ')}?`}
        message="The outcome leaves the patient table, its acceptance criterion and the population analysis. The values read so far stay in the trial’s record."
        confirmLabel="Remove and save"
        busy={busy}
        error={error}
        onConfirm={() => void save()}
        onCancel={() => setConfirming(false)}
      />
    </Paper>
  );
}
