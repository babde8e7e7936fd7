import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import type { MeasurementDefinitionView } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/Page';
import { CohortWorkspace } from '../../cohorts';
import { useSsm } from '../../ssm';
import { useMeasurementDefinitions } from '../api';
import { flowPath, readFlow, subjectOf } from '../flow';
import { draftOf } from '../measurementDraft';
import { MeasurementSteps } from './MeasurementSteps';
import { MeasurementsGate } from './MeasurementsGate';
import { NewMeasurementDrawer } from './NewMeasurementDrawer';

const phaseWords = { 'end-diastole': 'end-diastole', 'end-systole': 'end-systole' } as const;

function DefinitionRow({
  d,
  checked,
  onToggle,
  onEdit,
}: {
  d: MeasurementDefinitionView;
  checked: boolean;
  onToggle: () => void;
  onEdit?: () => void;
}) {
  const row = (
    <FormControlLabel
      control={<Checkbox checked={checked} onChange={onToggle} />}
      label={
        <span>
          {d.name}{' '}
          <Typography component="span" variant="body2" color="text.secondary">
            ({d.unit}, {phaseWords[d.phase]}
            {d.builtIn ? '' : `, version ${d.version}`})
          </Typography>
        </span>
      }
    />
  );
  if (!onEdit) return row;
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
      {row}
      <Button size="small" onClick={onEdit} aria-label={`Edit ${d.name}`}>
        Edit
      </Button>
    </Stack>
  );
}

/** Which model's shapes are measured, and at which phase (a measurement at another phase is not taken on it). */
function ShapeModelNote({ deviceId, projectId, ssmId }: { deviceId: string; projectId: string; ssmId: string }) {
  const ssm = useSsm(deviceId, projectId, ssmId);
  if (ssm.error) return <Alert severity="error">{ssm.error.message}</Alert>;
  if (!ssm.data) return <Typography color="text.secondary">Loading the shape model…</Typography>;
  const phase = phaseWords[ssm.data.configuration.phase];
  return (
    <Alert severity="info">
      Measuring the shapes of {ssm.data.name}: its mean shape and its named instances. It is built at {phase}, so only
      measurements at {phase} are taken on it.
    </Alert>
  );
}

function Define({ deviceId }: { deviceId: string }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const flow = readFlow(params);
  const definitions = useMeasurementDefinitions(deviceId);
  const chosen = new Set(flow.definitionIds);
  const setChosen = (ids: string[]) =>
    void navigate(flowPath('define', { ...flow, deviceId, definitionIds: ids }), { replace: true });
  const toggle = (id: string) =>
    setChosen(chosen.has(id) ? flow.definitionIds.filter((x) => x !== id) : [...flow.definitionIds, id]);
  const [editing, setEditing] = useState<MeasurementDefinitionView | null>(null);
  const drawerOpen = params.get('drawer') === 'new-measurement' || editing !== null;
  const setDrawer = (open: boolean) => {
    const next = new URLSearchParams(params);
    if (open) next.set('drawer', 'new-measurement');
    else {
      next.delete('drawer');
      setEditing(null);
    }
    setParams(next);
  };
  if (!subjectOf(flow))
    return (
      <Alert
        severity="info"
        action={
          <Button
            component={RouterLink}
            to={flowPath('select-patient-cohort', { deviceId })}
            color="inherit"
            size="small"
          >
            Select a cohort
          </Button>
        }
      >
        Select the patient cohort (or the shape model) to measure first.
      </Alert>
    );
  if (definitions.error && !definitions.data) return <Alert severity="error">{definitions.error.message}</Alert>;
  if (!definitions.data) return <Typography color="text.secondary">Loading the measurements…</Typography>;
  const set = definitions.data.builtInSets[0];
  const builtIn = definitions.data.items.filter((d) => d.builtIn);
  const own = definitions.data.items.filter((d) => !d.builtIn);
  const allOfSet = set !== undefined && set.definitionIds.every((id) => chosen.has(id));
  return (
    <Stack spacing={3}>
      {flow.ssmId && flow.projectId && (
        <ShapeModelNote deviceId={deviceId} projectId={flow.projectId} ssmId={flow.ssmId} />
      )}
      {set && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h3" component="h2">
              {set.name}
            </Typography>
            <Button
              onClick={() =>
                setChosen(
                  allOfSet
                    ? flow.definitionIds.filter((id) => !set.definitionIds.includes(id))
                    : [...flow.definitionIds.filter((id) => !set.definitionIds.includes(id)), ...set.definitionIds],
                )
              }
            >
              {allOfSet ? 'Clear the set' : 'Choose the whole set'}
            </Button>
          </Stack>
          <Stack>
            {builtIn.map((d) => (
              <DefinitionRow key={d.id} d={d} checked={chosen.has(d.id)} onToggle={() => toggle(d.id)} />
            ))}
          </Stack>
        </Paper>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h3" component="h2">
            Your measurements
          </Typography>
          <Button variant="outlined" onClick={() => setDrawer(true)}>
            New measurement
          </Button>
        </Stack>
        {own.length === 0 ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            None yet: define one on the anatomy’s landmarks.
          </Typography>
        ) : (
          <Stack>
            {own.map((d) => (
              <DefinitionRow
                key={d.id}
                d={d}
                checked={chosen.has(d.id)}
                onToggle={() => toggle(d.id)}
                onEdit={draftOf(d) ? () => setEditing(d) : undefined}
              />
            ))}
          </Stack>
        )}
      </Paper>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button component={RouterLink} to={flowPath('select-patient-cohort', { deviceId })}>
          Back
        </Button>
        <Button
          variant="contained"
          disabled={chosen.size === 0}
          component={RouterLink}
          to={flowPath('order', { ...flow, deviceId })}
        >
          Continue with {chosen.size} measurement{chosen.size === 1 ? '' : 's'}
        </Button>
      </Stack>
      <NewMeasurementDrawer
        key={editing?.id ?? 'new'}
        deviceId={deviceId}
        cohortId={flow.cohortId}
        open={drawerOpen}
        editing={editing}
        onClose={() => setDrawer(false)}
        onCreated={(created) => {
          // A new version takes the place of the one it revises in the selection.
          const kept = flow.definitionIds.filter((id) => id !== editing?.id);
          setEditing(null);
          void definitions.mutate();
          void navigate(flowPath('define', { ...flow, deviceId, definitionIds: [...kept, created.id] }), {
            replace: true,
          });
        }}
      />
    </Stack>
  );
}

/** `/measurement/define`: the built-in TAVI set and the workspace's measurements to order; new ones in the drawer. */
export function DefinePage() {
  return (
    <Page
      section="Measurement"
      title="Define the measurement"
      description="Choose the anatomical measurements to take on every patient."
    >
      <MeasurementSteps active={1} />
      <CohortWorkspace>
        {(deviceId) => (
          <MeasurementsGate deviceId={deviceId}>
            <Define deviceId={deviceId} />
          </MeasurementsGate>
        )}
      </CohortWorkspace>
    </Page>
  );
}
