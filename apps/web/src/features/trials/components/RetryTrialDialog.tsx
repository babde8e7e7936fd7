import { useState } from 'react';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TrialDetail, TrialPatient } from '@insilico/contracts';
import { FormDialog } from '../../../components/FormDialog';
import { retryTrial } from '../api';
import { patientStatusLabels, stageLabels } from '../format';
import {
  draftMatches,
  PlacementRuleFields,
  placementRuleDraft,
  placementRuleOf,
  type PlacementRuleDraft,
} from './PlacementRuleFields';

/**
 * Whether a retried patient is placed again by the trial's rule (the server's retry): one whose run exists and failed
 * or was cancelled runs again in its room as placed; any other (failed at placement or set-up, or cancelled before its
 * run) is placed again.
 */
export function placedAgain(p: TrialPatient): boolean {
  return !(p.simulationId !== null && (p.stage === null || p.stage === 'run'));
}

/**
 * Retry of the failed and cancelled patients: each listed with why it failed and whether it is placed again, and the
 * placement rule, prefilled with the trial's, to correct first. "Retry" sends the corrected rule, or none when it is
 * unchanged; the server's refusal shows here as it words it.
 */
export function RetryTrialDialog(props: {
  deviceId: string;
  trial: TrialDetail;
  onClose: () => void;
  onRetried: (trial: TrialDetail) => void;
}) {
  const { deviceId, trial } = props;
  const [draft, setDraft] = useState<PlacementRuleDraft>(() => placementRuleDraft(trial.placement));
  const again = trial.patients.filter((p) => p.status === 'failed' || p.status === 'cancelled');
  const toPlace = again.filter(placedAgain);
  const changed = !draftMatches(draft, trial.placement);
  const who = trial.ssm ? 'instance' : 'patient';

  const send = async () => {
    const body = changed && toPlace.length > 0 ? { placement: placementRuleOf(draft) } : {};
    props.onRetried(await retryTrial(deviceId, trial.projectId, trial.id, body));
  };

  return (
    <FormDialog
      title="Retry failed and cancelled patients"
      submitLabel="Retry"
      canSubmit={again.length > 0}
      send={send}
      failure="The patients could not be retried. Please try again."
      onClose={props.onClose}
    >
      {(busy) => (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {again.length} {who}
            {again.length === 1 ? '' : 's'} run again; those that are done keep their outcomes.
          </Typography>
          <List dense aria-label={`${who[0]!.toUpperCase()}${who.slice(1)}s to retry`} disablePadding>
            {again.map((p) => (
              <ListItem key={p.patientId} disableGutters>
                <ListItemText
                  primary={`${p.instance?.name ?? p.patientId}: ${patientStatusLabels[p.status]}`}
                  secondary={
                    <>
                      {p.error && `${p.stage ? `${stageLabels[p.stage]}: ` : ''}${p.error} `}
                      {placedAgain(p) ? 'Placed again by the rule below.' : 'Runs again in its room as placed.'}
                    </>
                  }
                  slotProps={{ secondary: { color: p.error ? 'error' : 'text.secondary' } }}
                />
              </ListItem>
            ))}
          </List>
          {toPlace.length > 0 ? (
            <>
              <Typography variant="subtitle2" component="h3">
                Placement rule
              </Typography>
              <PlacementRuleFields value={draft} onChange={setDraft} disabled={busy} />
              {changed && (
                <Alert severity="info" role="status">
                  The corrected rule becomes the trial’s and places the {toPlace.length} {who}
                  {toPlace.length === 1 ? '' : 's'} placed again; every other {who} keeps the rule it was placed by, and
                  the trial’s record names each {who}’s rule.
                </Alert>
              )}
            </>
          ) : (
            <Typography variant="body2">
              Each of them runs again in its room as placed: the placement rule does not change.
            </Typography>
          )}
        </Stack>
      )}
    </FormDialog>
  );
}
