import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { ssmOrganLabels, ssmPhaseLabels, type DraftSsm } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useCohorts } from '../../cohorts';
import { useWizard } from '../wizardContext';
import { chosenCohorts, ssmLacksCohort, withoutSsm } from '../wizardState';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/**
 * What an SSM of the draft is built from, in a line; `ordering`: the names of its cohorts still being ordered, which
 * it waits for once the project is created (issue 18).
 */
function describe(ssm: DraftSsm, ordering: readonly string[]): string {
  const organs = ssm.organs.map((organ) => ssmOrganLabels[organ]).join(' + ');
  const line = `${organs} · ${ssmPhaseLabels[ssm.phase].toLowerCase()} · ${ssm.shapeCount} patients`;
  return ordering.length > 0
    ? `${line} · built once ${ordering.join(', ')} ${ordering.length > 1 ? 'are' : 'is'} ready`
    : line;
}

/**
 * The SSMs of the draft (issue 18), each removable after a confirmation; one built from a cohort no longer chosen
 * is flagged (the project cannot be created with it).
 */
export function DraftSsmList() {
  const { deviceId, draft, save, saving } = useWizard();
  const [removing, setRemoving] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cohorts = useCohorts(deviceId);
  if (draft.ssms.length === 0) return null;
  const ordering = (ssm: DraftSsm) =>
    (cohorts.data?.items ?? [])
      .filter((cohort) => cohort.status === 'in_progress' && ssm.cohortIds.includes(cohort.id))
      .map((cohort) => cohort.name);
  const target = removing === null ? null : draft.ssms[removing];
  return (
    <>
      <List dense aria-label="SSMs of the new project">
        {draft.ssms.map((ssm, index) => (
          <ListItem
            key={`${ssm.name}-${index}`}
            secondaryAction={
              <IconButton
                edge="end"
                aria-label={`Remove the SSM ${ssm.name}`}
                onClick={() => setRemoving(index)}
                disabled={saving}
              >
                <DeleteOutlineIcon />
              </IconButton>
            }
          >
            <ListItemText
              primary={ssm.name}
              secondary={
                ssmLacksCohort(draft, ssm)
                  ? `${describe(ssm, ordering(ssm))} · built from a cohort that is no longer chosen`
                  : describe(ssm, ordering(ssm))
              }
              slotProps={{ secondary: { color: ssmLacksCohort(draft, ssm) ? 'warning.main' : undefined } }}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={target !== null && target !== undefined}
        title="Remove this SSM?"
        message={`${target?.name ?? ''} is not built when the project is created. You can configure it again.`}
        confirmLabel="Remove SSM"
        busy={saving}
        error={error}
        onConfirm={() => {
          if (removing === null) return;
          setError(null);
          void save((current) => withoutSsm(current, removing)).then((ok) => {
            if (ok) setRemoving(null);
            else setError('The SSM could not be removed. Try again.');
          });
        }}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

/** The cohort step's SSM section: the draft's SSMs and New SSM (built from the project's cohorts). */
export function DraftSsmSection() {
  const { draft, go, saving } = useWizard();
  const cohorts = chosenCohorts(draft);
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h3" sx={{ fontSize: 18, mb: 1 }}>
        Statistical shape models
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1, maxWidth: 720 }}>
        Optionally, configure SSMs built from the project&apos;s cohorts. They are built when the project is created.
      </Typography>
      <DraftSsmList />
      <Button
        variant="outlined"
        onClick={() => void go('new-ssm-select-patient-cohorts')}
        disabled={saving || cohorts.length === 0}
      >
        New SSM
      </Button>
    </Box>
  );
}

/** new-ssm-complete in the wizard: the SSM added, what happens to it, and the way on. */
export function DraftSsmsComplete() {
  const { draft, go, saving } = useWizard();
  const last = draft.ssms.at(-1);
  return (
    <div>
      <StepHeading title="New statistical shape model" />
      {last ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {last.name} is added to the project. It is built when the project is created: it shows in progress until it is
          ready, and you get a notification then.
        </Alert>
      ) : (
        <Alert severity="info" sx={{ mb: 2 }}>
          The project has no SSM yet.
        </Alert>
      )}
      <DraftSsmList />
      <Stack direction="row" spacing={2}>
        <Button
          variant="outlined"
          onClick={() => void go('new-ssm-select-patient-cohorts', { newSsm: null })}
          disabled={saving}
        >
          Add another SSM
        </Button>
      </Stack>
      <StepActions
        onBack={() => void go('patient-cohort-list')}
        backLabel="Back to the cohorts"
        onNext={() => void go('question-of-interest')}
        busy={saving}
      />
    </div>
  );
}
