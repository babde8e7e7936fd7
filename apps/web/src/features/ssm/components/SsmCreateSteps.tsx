import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  Radio,
  RadioGroup,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Typography,
} from '@mui/material';
import {
  defaultSsmName,
  ssmNameMaxLength,
  ssmOrganLabels,
  ssmOrgans,
  ssmPhaseLabels,
  ssmPhases,
  ssmTooFewCode,
  type ImagingCohort,
  type SsmPhase,
} from '@insilico/contracts';
import { useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/apiError';
import { useProject } from '../../projects';
import { useAskSupport } from '../../support';
import { useImagingCohorts } from '../../imaging-patients';
import { createSsm, useCohortPatientIds, useSsm } from '../api';
import { SsmFlowHostContext, type SsmCohortChoice, type SsmFlowHost } from '../flowHost';
import { ssmPagePath, ssmStepPath, ssmSteps, type SsmStepRoute } from '../paths';
import {
  clearSsmDraft,
  keptPatients,
  loadSsmDraft,
  saveSsmDraft,
  ssmMinShapes,
  ssmRequestBody,
  stepProblem,
  toggleCohort,
  toggleExcluded,
  toggleOrgan,
  type SsmDraft,
} from '../ssmDraft';

/** The host of the steps on a project (`?project=&device=`): the draft kept for that project, created at once. */
function useProjectHost(): SsmFlowHost | null {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const deviceId = params.get('device');
  const navigate = useNavigate();
  const [draft, setDraft] = useState<SsmDraft>(() => loadSsmDraft(sessionStorage, projectId ?? ''));
  useEffect(() => {
    if (projectId) saveSsmDraft(sessionStorage, projectId, draft);
  }, [draft, projectId]);
  const project = useProject(deviceId, projectId);
  const imaging = useImagingCohorts(deviceId, projectId);
  const cohorts = useMemo(
    () => projectCohortChoices(project.data?.cohorts, imaging.data?.items),
    [project.data, imaging.data],
  );
  if (!projectId || !deviceId) return null;
  return {
    deviceId,
    draft,
    setDraft,
    cohorts: {
      items: cohorts,
      error: project.error ?? imaging.error,
      empty: 'This project has no patient cohorts yet.',
    },
    go: (route) => void navigate(ssmStepPath(route, deviceId, projectId)),
    create: async (body) => {
      const ssm = await createSsm(deviceId, projectId, body);
      clearSsmDraft(sessionStorage, projectId);
      await navigate(ssmStepPath('new-ssm-complete', deviceId, projectId, { ssm: ssm.id }));
    },
    createLabel: 'Create SSM',
    embedded: false,
    busy: false,
  };
}

/**
 * The cohorts a project offers a model: its virtual cohorts, then its ready imaging cohorts (the user's own imaging,
 * each with its delivered patients); undefined until the project is read (the imaging list may follow).
 */
export function projectCohortChoices(
  virtual: readonly SsmCohortChoice[] | undefined,
  imaging: readonly ImagingCohort[] | undefined,
): SsmCohortChoice[] | undefined {
  if (!virtual) return undefined;
  const ready = (imaging ?? []).filter((cohort) => cohort.status === 'ready');
  return [
    ...virtual,
    ...ready.map((cohort) => ({
      id: cohort.datasetId,
      name: cohort.name,
      size: cohort.patients.length,
      status: 'ready',
      imagingPatients: cohort.patients.map((patient) => patient.id),
    })),
  ];
}

/** A step in its host: the project wizard's (context), else the project named in the address. */
function Hosted({ step: View }: { step: (props: { host: SsmFlowHost }) => ReactNode }) {
  const wizardHost = useContext(SsmFlowHostContext);
  return wizardHost ? <View host={wizardHost} /> : <ProjectHosted step={View} />;
}

function ProjectHosted({ step: View }: { step: (props: { host: SsmFlowHost }) => ReactNode }) {
  const host = useProjectHost();
  return host ? <View host={host} /> : <Missing />;
}

function StepFrame({ active, embedded, children }: { active: number; embedded: boolean; children: ReactNode }) {
  return (
    <Box sx={embedded ? undefined : { maxWidth: 960, mx: 'auto', p: 3 }}>
      <Typography variant={embedded ? 'h2' : 'h1'} sx={{ fontSize: embedded ? 22 : 28, mb: 2 }}>
        New statistical shape model
      </Typography>
      <Stepper activeStep={active} sx={{ mb: 4 }} aria-label="SSM creation steps">
        {ssmSteps.map((step) => (
          <Step key={step.route}>
            <StepLabel>{step.label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {children}
    </Box>
  );
}

function Missing() {
  return <Alert severity="warning">Open SSM creation from a project: the address names no project.</Alert>;
}

/** Step 1, Patients: one or more of the project's ready cohorts; patients can be left out. */
export function SsmPatientsStep() {
  return <Hosted step={PatientsView} />;
}

function PatientsView({ host }: { host: SsmFlowHost }) {
  const { deviceId, draft, setDraft, cohorts } = host;
  const [patientsByCohort, setPatientsByCohort] = useState<Map<string, string[]>>(new Map());
  const onPatients = useCallback(
    (cohortId: string, ids: string[]) =>
      setPatientsByCohort((current) =>
        current.get(cohortId)?.length === ids.length ? current : new Map(current).set(cohortId, ids),
      ),
    [],
  );
  const problem = stepProblem('patients', draft);
  const kept = keptPatients(draft, patientsByCohort);
  const awaited = (cohorts.items ?? []).filter(
    (cohort) => draft.cohortIds.includes(cohort.id) && cohort.status === 'in_progress',
  );
  return (
    <StepFrame active={0} embedded={host.embedded}>
      <Typography sx={{ mb: 2 }} color="text.secondary">
        Choose the patient cohorts the model is built from. Untick a patient to leave it out. A model needs at least{' '}
        {ssmMinShapes} patients.
      </Typography>
      {cohorts.error && <Alert severity="error">{cohorts.error.message}</Alert>}
      {!cohorts.items && !cohorts.error && <CircularProgress aria-label="Loading the patient cohorts" />}
      {cohorts.items?.length === 0 && <Alert severity="info">{cohorts.empty}</Alert>}
      <Stack spacing={2}>
        {(cohorts.items ?? []).map((cohort) => (
          <CohortChoice
            key={cohort.id}
            deviceId={deviceId}
            cohort={cohort}
            draft={draft}
            onDraft={setDraft}
            onPatients={onPatients}
            patients={patientsByCohort.get(cohort.id) ?? []}
            waitForCohorts={host.waitForCohorts ?? false}
          />
        ))}
      </Stack>
      <Typography sx={{ mt: 2 }} data-testid="ssm-kept-patients">
        {kept} patients chosen
        {awaited.length > 0 &&
          `, and the patients of ${awaited.map((cohort) => cohort.name).join(', ')} once ${awaited.length > 1 ? 'they are' : 'it is'} ready`}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: host.back ? 'space-between' : 'flex-end' }}>
        {host.back && (
          <Button onClick={host.back} disabled={host.busy}>
            Back
          </Button>
        )}
        <Button
          disabled={problem !== null || host.busy}
          variant="contained"
          onClick={() => host.go('new-ssm-select-organ-phase')}
        >
          Next
        </Button>
      </Stack>
    </StepFrame>
  );
}

function CohortChoice({
  deviceId,
  cohort,
  draft,
  onDraft,
  onPatients,
  patients,
  waitForCohorts,
}: {
  deviceId: string;
  cohort: SsmCohortChoice;
  draft: SsmDraft;
  onDraft: (update: (draft: SsmDraft) => SsmDraft) => void;
  onPatients: (cohortId: string, ids: string[]) => void;
  patients: string[];
  waitForCohorts: boolean;
}) {
  const chosen = draft.cohortIds.includes(cohort.id);
  const ready = cohort.status === 'ready';
  // A cohort still being ordered, in the wizard: the SSM waits for it (issue 18).
  const awaited = waitForCohorts && cohort.status === 'in_progress';
  const imaging = cohort.imagingPatients;
  const page = useCohortPatientIds(ready && !imaging ? deviceId : null, ready && !imaging ? cohort.id : null);
  const ids = useMemo(() => imaging ?? page.data?.items.map((item) => item.id) ?? [], [imaging, page.data]);
  useEffect(() => {
    if (ids.length > 0) onPatients(cohort.id, ids);
  }, [ids, onPatients, cohort.id]);
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2 }}>
      <FormControlLabel
        control={
          <Checkbox
            checked={chosen}
            disabled={!ready && !awaited}
            onChange={() => onDraft((current) => toggleCohort(current, cohort.id, patients))}
          />
        }
        label={`${cohort.name} (${cohort.size} patients${ready ? '' : cohort.status === 'failed' ? ', failed' : ', in progress'})${imaging ? ', your own imaging' : ''}`}
      />
      {imaging && (
        <Typography variant="body2" color="text.secondary" sx={{ pl: 4 }}>
          Patients of your own imaging (not synthetic): their delivered surfaces are paired point to point by
          registration to the patient with the coarsest surface.
        </Typography>
      )}
      {awaited && (
        <Typography variant="body2" color="text.secondary" sx={{ pl: 4 }}>
          {chosen
            ? 'The SSM waits for this cohort and is built once it is ready, from all its patients.'
            : 'Still being ordered: an SSM on it waits for it and is built once it is ready.'}
        </Typography>
      )}
      {chosen && ready && (
        <FormGroup row role="group" sx={{ pl: 4 }} aria-label={`Patients of ${cohort.name}`}>
          {ids.map((id) => (
            <FormControlLabel
              key={id}
              sx={{ minWidth: 150 }}
              control={
                <Checkbox
                  size="small"
                  checked={!draft.excludedPatients.includes(id)}
                  onChange={() => onDraft((current) => toggleExcluded(current, id))}
                />
              }
              label={id}
            />
          ))}
        </FormGroup>
      )}
    </Box>
  );
}

/** Step 2, Organs: the organ(s) and the heart phase. */
export function SsmOrgansStep() {
  return <Hosted step={OrgansView} />;
}

function OrgansView({ host }: { host: SsmFlowHost }) {
  const { draft, setDraft } = host;
  const problem = stepProblem('organs', draft);
  return (
    <StepFrame active={1} embedded={host.embedded}>
      <Typography sx={{ mb: 2 }} color="text.secondary">
        Choose the organs (several make one joint model, their shapes varying together) and the phase of the heart
        cycle.
      </Typography>
      <FormGroup row role="group" aria-label="Organs">
        {ssmOrgans.map((organ) => (
          <FormControlLabel
            key={organ}
            sx={{ minWidth: 200 }}
            control={
              <Checkbox
                checked={draft.organs.includes(organ)}
                onChange={() => setDraft((d) => toggleOrgan(d, organ))}
              />
            }
            label={ssmOrganLabels[organ]}
          />
        ))}
      </FormGroup>
      <Typography sx={{ mt: 3, mb: 1 }} id="ssm-phase-label">
        Heart phase
      </Typography>
      <RadioGroup
        row
        aria-labelledby="ssm-phase-label"
        value={draft.phase}
        onChange={(event) => setDraft((d) => ({ ...d, phase: event.target.value as SsmPhase }))}
      >
        {ssmPhases.map((phase) => (
          <FormControlLabel key={phase} value={phase} control={<Radio />} label={ssmPhaseLabels[phase]} />
        ))}
      </RadioGroup>
      {problem && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {problem}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'space-between' }}>
        <Button onClick={() => host.go('new-ssm-select-patient-cohorts')} disabled={host.busy}>
          Back
        </Button>
        <Button
          disabled={problem !== null || host.busy}
          variant="contained"
          onClick={() => host.go('new-ssm-name-configuration')}
        >
          Next
        </Button>
      </Stack>
    </StepFrame>
  );
}

/** Step 3, Name: optional (a default names organs, phase and size); creates the SSM (or adds it to the wizard). */
export function SsmNameStep() {
  return <Hosted step={NameView} />;
}

function NameView({ host }: { host: SsmFlowHost }) {
  const { draft, setDraft } = host;
  const support = useAskSupport();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tooFew, setTooFew] = useState<string | null>(null);
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      await host.create(ssmRequestBody(draft));
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === ssmTooFewCode) setTooFew(caught.message);
      else setError(caught instanceof Error ? caught.message : 'The SSM could not be created.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <StepFrame active={2} embedded={host.embedded}>
      <TextField
        label="SSM name (optional)"
        value={draft.name}
        onChange={(event) => setDraft((d) => ({ ...d, name: event.target.value }))}
        placeholder={defaultSsmName(draft, 0).replace(/, 0 patients$/, '')}
        helperText="Without a name, the model is named after its organs, phase and number of patients."
        slotProps={{ htmlInput: { maxLength: ssmNameMaxLength } }}
        fullWidth
      />
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ mt: 3, justifyContent: 'space-between' }}>
        <Button onClick={() => host.go('new-ssm-select-organ-phase')} disabled={busy || host.busy}>
          Back
        </Button>
        <Button variant="contained" disabled={busy || host.busy} onClick={() => void create()}>
          {host.createLabel}
        </Button>
      </Stack>
      <Dialog open={tooFew !== null} onClose={() => setTooFew(null)} aria-labelledby="ssm-too-few-title">
        <DialogTitle id="ssm-too-few-title">Too few patients for an SSM</DialogTitle>
        <DialogContent>
          <DialogContentText>{tooFew}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setTooFew(null)}>Change patients</Button>
          <Button
            variant="contained"
            onClick={() => {
              setTooFew(null);
              support.openPrefilled({
                subject: 'Statistical shape model with few patients',
                message: `I would like to build a statistical shape model from fewer than ${ssmMinShapes} patients.`,
              });
            }}
          >
            Contact support
          </Button>
        </DialogActions>
      </Dialog>
    </StepFrame>
  );
}

/** After creation: the SSM in progress until ready (spec §4), with a way to its page; the wizard's own page there. */
export function SsmCompleteStep() {
  const wizardHost = useContext(SsmFlowHostContext);
  return wizardHost ? (wizardHost.completePage ?? null) : <ProjectSsmComplete />;
}

function ProjectSsmComplete() {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const deviceId = params.get('device');
  const ssmId = params.get('ssm');
  const ssm = useSsm(deviceId, projectId, ssmId);
  if (!projectId || !deviceId || !ssmId) return <Missing />;
  return (
    <StepFrame active={3} embedded={false}>
      {ssm.error && <Alert severity="error">{ssm.error.message}</Alert>}
      {ssm.data && <SsmStatus ssm={ssm.data} />}
      {ssm.data && (
        <Button component={RouterLink} to={ssmPagePath(deviceId, projectId, ssmId)} variant="contained" sx={{ mt: 3 }}>
          Open the SSM
        </Button>
      )}
    </StepFrame>
  );
}

/** In progress (with the job's progress), ready, or failed with its reason. */
export function SsmStatus({
  ssm,
}: {
  ssm: {
    name: string;
    status: string;
    progress: number;
    progressMessage: string | null;
    waitingFor: { name: string }[];
    error: string | null;
    shapeCount: number;
  };
}) {
  if (ssm.status === 'in_progress' && ssm.waitingFor.length > 0)
    return (
      <Alert severity="info" role="status">
        {ssm.name} is waiting for the patient cohort{ssm.waitingFor.length > 1 ? 's' : ''}{' '}
        {ssm.waitingFor.map((cohort) => cohort.name).join(', ')} to be ready: it is built then. You get a notification
        when it is ready.
      </Alert>
    );
  if (ssm.status === 'in_progress')
    return (
      <Box role="status">
        <Typography>
          {ssm.name} is in progress: {ssm.progressMessage ?? 'waiting to start'} ({Math.round(ssm.progress * 100)} %).
          You get a notification when it is ready.
        </Typography>
        <LinearProgress variant="determinate" value={ssm.progress * 100} sx={{ mt: 1 }} />
      </Box>
    );
  if (ssm.status === 'failed') return <Alert severity="error">{ssm.error ?? 'The SSM could not be built.'}</Alert>;
  return (
    <Alert severity="success" role="status">
      {ssm.name} is ready: built from {ssm.shapeCount} patients.
    </Alert>
  );
}

/** Where "New SSM" leads from a project. */
export function newSsmPath(
  deviceId: string,
  projectId: string,
  route: SsmStepRoute = 'new-ssm-select-patient-cohorts',
) {
  return ssmStepPath(route, deviceId, projectId);
}
