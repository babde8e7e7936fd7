import { useState } from 'react';
import Alert from '@mui/material/Alert';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  simulationKinds,
  trialNameMaxLength,
  type CustomOutcome,
  type SimulationKindName,
  type SimulationResolution,
  type TrialDetail,
} from '@insilico/contracts';
import { FormDialog } from '../../../components/FormDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { createTrial, useTrialSetup } from '../api';
import { CustomOutcomesEditor, forKind } from './CustomOutcomesEditor';
import {
  PlacementRuleFields,
  placementRuleDraft,
  placementRuleOf,
  type PlacementRuleDraft,
} from './PlacementRuleFields';

const kindLabels: Record<SimulationKindName, string> = { fluid: 'Fluid', solid: 'Solid', particle: 'Particle' };

interface NewTrialDialogProps {
  deviceId: string;
  projectId: string;
  onClose: () => void;
  onCreated: (trial: TrialDetail) => void;
}

/**
 * A new trial: a name, one of the project's ready cohorts or SSMs (its named instances are then the patients) and
 * device versions, the kind and resolution, and the placement rule (snap to an annulus with a depth offset, optionally
 * only patients in a size range). The server checks everything again and its refusal shows here as it words it.
 */
export function NewTrialDialog({ deviceId, projectId, onClose, onCreated }: NewTrialDialogProps) {
  const setup = useTrialSetup(deviceId, projectId, true);
  const [name, setName] = useState('');
  /** `cohort:<id>` or `ssm:<id>`: what the trial runs on. */
  const [subjectKey, setSubjectKey] = useState('');
  const [versionId, setVersionId] = useState('');
  const [kind, setKind] = useState<SimulationKindName>('fluid');
  const [resolution, setResolution] = useState<SimulationResolution | ''>('');
  const [placement, setPlacement] = useState<PlacementRuleDraft>(placementRuleDraft);
  const [customOutcomes, setCustomOutcomes] = useState<CustomOutcome[]>([]);

  const data = setup.data;
  const resolutions: SimulationResolution[] = data?.testResolution
    ? ['test', 'coarse', 'standard', 'fine']
    : ['coarse', 'standard', 'fine'];
  const chosenResolution = resolution || resolutions[0]!;
  const virtualCohorts = data?.cohorts.filter((c) => c.source === 'virtual') ?? [];
  // The user's own imaging cohorts: their delivered patients, each placed on its delivered aortic root.
  const imagingCohorts = data?.cohorts.filter((c) => c.source === 'imaging') ?? [];
  const firstSsm = data?.ssms.find((m) => m.instances > 0);
  const firstSubject = data?.cohorts[0] ? `cohort:${data.cohorts[0].id}` : firstSsm ? `ssm:${firstSsm.id}` : '';
  const subject = subjectKey || firstSubject;
  const [subjectKind, subjectId] = subject.split(':') as ['cohort' | 'ssm' | '', string | undefined];
  const version = versionId || data?.versions[0]?.id || '';

  const send = async () => {
    onCreated(
      await createTrial(deviceId, projectId, {
        name,
        ...(subjectKind === 'ssm' ? { ssmId: subjectId } : { cohortId: subjectId }),
        versionId: version,
        kind,
        resolution: chosenResolution,
        placement: placementRuleOf(placement),
        customOutcomes,
      }),
    );
  };

  return (
    <FormDialog
      title="New trial"
      submitLabel="Start trial"
      canSubmit={Boolean(data && subjectId && version && name.trim() !== '')}
      send={send}
      failure="The trial could not be started. Please try again."
      onClose={onClose}
    >
      {setup.error ? (
        <LoadFailure what="The trial set-up" error={setup.error} retry={() => void setup.mutate()} />
      ) : !data ? (
        <Loading what="the project’s cohorts and device versions" />
      ) : (data.cohorts.length === 0 && data.ssms.length === 0) || data.versions.length === 0 ? (
        <Alert severity="info">
          A trial needs a ready cohort (or a shape model with named instances) and a ready device version on the
          project. Add them on the project first.
        </Alert>
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {subjectKind === 'ssm'
              ? 'One simulation for every named instance of the shape model (each room on a saved shape), the device placed in each by the rule below.'
              : 'One simulation for every patient of the cohort, the device placed in each by the rule below.'}
          </Typography>
          <TextField
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            autoFocus
            slotProps={{ htmlInput: { maxLength: trialNameMaxLength } }}
          />
          <TextField
            select
            label="Cohort or shape model"
            value={subject}
            onChange={(event) => setSubjectKey(event.target.value)}
          >
            {virtualCohorts.length > 0 && <ListSubheader>Cohorts</ListSubheader>}
            {virtualCohorts.map((c) => (
              <MenuItem key={c.id} value={`cohort:${c.id}`}>
                {c.name} ({c.patients} patients)
              </MenuItem>
            ))}
            {imagingCohorts.length > 0 && <ListSubheader>Your imaging data: delivered patients</ListSubheader>}
            {imagingCohorts.map((c) => (
              <MenuItem key={c.id} value={`cohort:${c.id}`}>
                {c.name} ({c.patients} patients, your imaging data)
              </MenuItem>
            ))}
            {data.ssms.length > 0 && <ListSubheader>Shape models: named instances</ListSubheader>}
            {data.ssms.map((m) => (
              <MenuItem key={m.id} value={`ssm:${m.id}`} disabled={m.instances === 0}>
                {m.name} (
                {m.instances === 0
                  ? 'no named instances yet: create one from its page'
                  : `${m.instances} named instance${m.instances === 1 ? '' : 's'}`}
                )
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Device version"
            value={version}
            onChange={(event) => setVersionId(event.target.value)}
          >
            {data.versions.map((v) => (
              <MenuItem key={v.id} value={v.id}>
                {v.name}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row" spacing={2}>
            <TextField
              select
              fullWidth
              label="Kind"
              value={kind}
              onChange={(event) => {
                const next = event.target.value as SimulationKindName;
                setKind(next);
                setCustomOutcomes((outcomes) => forKind(outcomes, next));
              }}
            >
              {simulationKinds.map((k) => (
                <MenuItem key={k} value={k}>
                  {kindLabels[k]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              fullWidth
              label="Resolution"
              value={chosenResolution}
              onChange={(event) => setResolution(event.target.value as SimulationResolution)}
            >
              {resolutions.map((r) => (
                <MenuItem key={r} value={r}>
                  {r === 'test' ? 'Test (seconds)' : r[0]!.toUpperCase() + r.slice(1)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <PlacementRuleFields value={placement} onChange={setPlacement} />
          <CustomOutcomesEditor kind={kind} value={customOutcomes} onChange={setCustomOutcomes} />
        </Stack>
      )}
    </FormDialog>
  );
}
