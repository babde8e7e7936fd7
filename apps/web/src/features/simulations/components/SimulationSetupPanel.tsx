import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { CreateSimulation, Simulation, SimulationKindName, SimulationSetup } from '@insilico/contracts';
import { simulationHelpMessage, simulationNameMaxLength } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import PlayArrowOutlinedIcon from '@mui/icons-material/PlayArrowOutlined';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { NumericStepper } from '../../../components/NumericStepper';
import { ApiError } from '../../../lib/apiError';
import { useAskSupport } from '../../support';
import { createSimulation, useSimulationEstimate, useSimulationSetup } from '../api';
import {
  estimateText,
  fixedByMaterial,
  initialForm,
  kindOptions,
  requestOf,
  resolutionOptions,
  setupRunnable,
  withMaterial,
  type SetupForm,
} from '../setupForm';

export interface SimulationSetupPanelProps {
  deviceId: string;
  projectId: string;
  roomId: string;
  roomName: string;
  /** Changes whenever the room's saved placements change (the set-up is asked for again). */
  roomRevision: string;
  /** The room has unsaved placements: the simulation would use the saved ones. */
  unsaved: boolean;
  /** The flow kinds' inlet and outlet planes to draw in the scene (null: none). */
  onPlanes: (planes: SimulationSetup['planes']) => void;
  /** A run was queued. */
  onStarted: (simulation: Simulation) => Promise<void> | void;
}

/** How long the form waits after a change before asking the server for the estimate again, ms. */
const estimateDelayMs = 400;

/** Step of a field's stepper: whole numbers step by 1, small ranges by a hundredth or a tenth. */
function stepOf(field: SimulationSetup['fields'][number]): number {
  if (field.integer) return 1;
  const span = field.max - field.min;
  return span <= 1 ? 0.01 : span <= 20 ? 0.1 : 1;
}

function labelOf(field: SimulationSetup['fields'][number]): string {
  return field.unit ? `${field.label} (${field.unit})` : field.label;
}

/**
 * The set-up of a new simulation in a room (issue 16 item 1): the kind with its one-line description, its
 * parameters with the patient's defaults (numeric steppers within the server's ranges), the device material from
 * the library with its source or custom values, the resolution with its particle count and estimated run time (the
 * server's estimate of exactly this set-up, whose refusal shows as it comes), and spec §8's simulation help, which
 * opens the ask-support drawer prefilled.
 */
export function SimulationSetupPanel(props: SimulationSetupPanelProps) {
  const { deviceId, projectId, roomId, roomName, roomRevision, unsaved, onPlanes, onStarted } = props;
  const [kind, setKind] = useState<SimulationKindName>('fluid');
  const setup = useSimulationSetup(deviceId, projectId, roomId, kind, roomRevision);
  const [form, setForm] = useState<SetupForm | null>(null);
  const [formOf, setFormOf] = useState<SimulationSetup | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const askSupport = useAskSupport();

  // A new set-up answer (another kind, a re-saved room) starts the form from its defaults, keeping the resolution and
  // the name typed (set while rendering, React's way to derive state from new data).
  if (setup.data && setup.data !== formOf) {
    setFormOf(setup.data);
    setForm(initialForm(setup.data, form ?? undefined));
  }
  const current = form && formOf && formOf.kind === kind ? form : null;

  const planes = setup.data?.planes ?? null;
  useEffect(() => {
    onPlanes(planes);
  }, [planes, onPlanes]);
  useEffect(() => () => onPlanes(null), [onPlanes]);

  // The estimate follows the form after a short pause (typing in a stepper commits once, but the kind switches too).
  const request = useMemo(() => (current && formOf ? requestOf(current, formOf) : null), [current, formOf]);
  // The estimate does not depend on the run's name: typing one asks nothing.
  const estimateKey = request ? JSON.stringify({ ...request, name: undefined }) : null;
  const [askedKey, setAskedKey] = useState(estimateKey);
  useEffect(() => {
    const timer = setTimeout(() => setAskedKey(estimateKey), estimateDelayMs);
    return () => clearTimeout(timer);
  }, [estimateKey]);
  const asked = useMemo(() => (askedKey ? (JSON.parse(askedKey) as CreateSimulation) : null), [askedKey]);
  const runnable = formOf !== null && setupRunnable(formOf);
  const estimate = useSimulationEstimate(deviceId, projectId, roomId, runnable ? asked : null);
  // The estimate shown is of exactly the form as it stands: none while a change waits for its pause or its answer
  // (a stale "particles" line could let a set-up the server refuses be started).
  const estimateCurrent = estimateKey === askedKey && !estimate.isValidating;
  const estimateReady = estimateCurrent && !estimate.error && estimate.data !== undefined;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!request) return;
    setStarting(true);
    setStartError(null);
    try {
      const created = await createSimulation(deviceId, projectId, roomId, request);
      setForm((before) => (before ? { ...before, name: '' } : before));
      await onStarted(created);
    } catch (caught) {
      setStartError(caught instanceof ApiError ? caught.message : 'The simulation could not be started.');
    } finally {
      setStarting(false);
    }
  };

  const askForHelp = () =>
    askSupport.openPrefilled({
      subject: `Simulation set-up: ${roomName}`,
      message: [
        `I would like help setting up a ${kind} simulation in the room "${roomName}".`,
        '',
        'What I want to simulate:',
        '',
        `(Project ${projectId}, room ${roomId})`,
      ].join('\n'),
    });

  const description = kindOptions.find((option) => option.kind === kind)?.description ?? '';
  const update = (change: Partial<SetupForm>) => setForm((before) => (before ? { ...before, ...change } : before));
  const setValue = (key: string, value: number) =>
    setForm((before) => (before ? { ...before, values: { ...before.values, [key]: value } } : before));

  return (
    <Stack component="section" aria-labelledby="simulation-setup-title" spacing={2}>
      <Typography id="simulation-setup-title" variant="h6" component="h3">
        New simulation
      </Typography>
      <Box>
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label="Simulation kind"
          value={kind}
          onChange={(_event, value: SimulationKindName | null) => {
            if (value) setKind(value);
          }}
        >
          {kindOptions.map((option) => (
            <ToggleButton key={option.kind} value={option.kind}>
              {option.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {description}
        </Typography>
      </Box>
      {unsaved && (
        <Alert severity="warning">
          Save the room first: a simulation uses the devices as saved, not the placement being edited.
        </Alert>
      )}
      {setup.error ? (
        <LoadFailure what="The simulation set-up" error={setup.error} retry={() => void setup.mutate()} />
      ) : !current || !formOf ? (
        <Loading what="the simulation set-up" />
      ) : (
        <Box component="form" onSubmit={(event) => void start(event)} noValidate aria-label="Simulation set-up">
          <Stack spacing={2}>
            {/* A runnable form's problems are the estimate's to tell: they follow the values changed. */}
            {formOf.problems.length > 0 && !runnable && (
              <Alert severity="warning" role="alert">
                {formOf.problems.join(' ')}
              </Alert>
            )}
            {formOf.device ? (
              <Typography variant="body2">
                Device: <strong>{formOf.device.name}</strong>
                {kind === 'solid' ? '' : ' (a rigid wall in the flow)'}
              </Typography>
            ) : (
              <Typography variant="body2" color="text.secondary">
                No device is placed in this room.
              </Typography>
            )}
            {kind === 'solid' && (
              <TextField
                select
                size="small"
                label="Device material"
                value={current.material}
                onChange={(event) => setForm(withMaterial(current, formOf, event.target.value))}
                helperText={
                  formOf.materials.find((m) => m.id === current.material)?.source ?? 'Enter the values below.'
                }
                sx={{ maxWidth: 420 }}
              >
                {formOf.materials.map((material) => (
                  <MenuItem key={material.id} value={material.id}>
                    {material.name}
                  </MenuItem>
                ))}
                <MenuItem value="custom">Custom values</MenuItem>
              </TextField>
            )}
            <Box
              role="group"
              aria-label="Parameters"
              sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
            >
              {formOf.fields.map((field) => (
                <NumericStepper
                  key={field.key}
                  label={labelOf(field)}
                  value={current.values[field.key] ?? field.min}
                  onChange={(value) => setValue(field.key, value)}
                  min={field.min}
                  max={field.max}
                  step={stepOf(field)}
                  kind={field.integer ? 'integer' : 'decimal'}
                  disabled={fixedByMaterial(current, field.key)}
                  width={220}
                />
              ))}
            </Box>
            {kind !== 'solid' && (
              <FormControlLabel
                control={
                  <Switch
                    checked={current.shearThinning}
                    onChange={(event) => update({ shearThinning: event.target.checked })}
                  />
                }
                label="Shear-thinning blood (Cho & Kensey)"
              />
            )}
            <FormControl>
              <FormLabel id="simulation-resolution">Resolution</FormLabel>
              <RadioGroup
                aria-labelledby="simulation-resolution"
                value={current.resolution}
                onChange={(event) => update({ resolution: event.target.value as SetupForm['resolution'] })}
              >
                {resolutionOptions(formOf).map((option) => (
                  <FormControlLabel
                    key={option.resolution}
                    value={option.resolution}
                    disabled={!option.available}
                    control={<Radio size="small" />}
                    label={
                      <span>
                        {option.label}
                        <Typography component="span" variant="body2" color="text.secondary">
                          {option.estimate
                            ? ` · ${estimateText(option.estimate)}`
                            : option.available
                              ? ''
                              : ' · over the particle limit'}
                        </Typography>
                      </span>
                    }
                  />
                ))}
              </RadioGroup>
            </FormControl>
            {runnable && (
              <Box role="status" aria-live="polite" data-testid="simulation-estimate">
                {estimateCurrent && estimate.error ? (
                  <Alert severity="error">{estimate.error.message}</Alert>
                ) : estimateReady && estimate.data ? (
                  <Typography variant="body2">
                    This set-up: <strong>{estimateText(estimate.data)}</strong> of computing for{' '}
                    {(estimate.data.endTime_s * 1000).toFixed(estimate.data.endTime_s < 0.1 ? 1 : 0)} ms simulated.
                  </Typography>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    Estimating…
                  </Typography>
                )}
              </Box>
            )}
            {formOf.canRun ? (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
                <TextField
                  size="small"
                  label="Name (optional)"
                  value={current.name}
                  onChange={(event) => update({ name: event.target.value })}
                  slotProps={{ htmlInput: { maxLength: simulationNameMaxLength } }}
                  sx={{ minWidth: 240 }}
                />
                <Button
                  type="submit"
                  variant="contained"
                  disabled={starting || !runnable || !estimateReady}
                  startIcon={
                    starting ? (
                      <CircularProgress size={16} color="inherit" aria-hidden="true" />
                    ) : (
                      <PlayArrowOutlinedIcon />
                    )
                  }
                >
                  Start simulation
                </Button>
              </Stack>
            ) : (
              <Typography variant="body2" color="text.secondary">
                Guests see this project’s simulations and their results; only the project team’s members and admins
                start runs.
              </Typography>
            )}
            {startError && (
              <Alert severity="error" role="alert" onClose={() => setStartError(null)}>
                {startError}
              </Alert>
            )}
          </Stack>
        </Box>
      )}
      <Alert
        severity="info"
        action={
          <Button color="inherit" size="small" onClick={askForHelp}>
            Ask support
          </Button>
        }
      >
        {formOf?.helpMessage ?? simulationHelpMessage}
      </Alert>
    </Stack>
  );
}
