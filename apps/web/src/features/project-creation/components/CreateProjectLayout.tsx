import { useCallback, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import {
  emptyProjectDraft,
  noPermissionMessage,
  projectCreationSteps,
  type Device,
  type ProjectDraftState,
} from '@insilico/contracts';
import { useSignedInUser } from '../../../app/user/userContext';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { useSelectedDevice } from '../../devices';
import { creationUrls, discardProjectDraft, saveProjectDraft, useProjectDraft, useWorkspaceDetails } from '../api';
import { stepRoutes, wizardPath, wizardRoutes, type WizardRoute } from '../paths';
import { applyChange, useWizard, WizardContext, type DraftChange, type Wizard } from '../wizardContext';

/**
 * `/projects/create/*`: the wizard of spec §2 "Project creation" around its pages. It loads the caller's draft
 * from the server (so a reload continues where it was saved), holds the draft as typed, saves it after each step,
 * and asks before leaving with unsaved progress (spec §4). SSM creation for an existing project (`?project=`, the
 * new-ssm-* routes) runs outside the wizard.
 */
export function CreateProjectLayout() {
  const [params] = useSearchParams();
  return params.get('project') ? <Outlet /> : <WizardShell />;
}

function WizardShell() {
  const selected = useSelectedDevice();
  const user = useSignedInUser();
  const device = selected.data?.device ?? null;

  let body;
  if (selected.error && !selected.data)
    body = <LoadFailure what="Your workspace" error={selected.error} retry={() => void selected.mutate()} />;
  else if (!selected.data) body = <Loading what="your workspace" />;
  else if (!device)
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/devices/setup" color="inherit" size="small">
            Set up a device
          </Button>
        }
      >
        Projects belong to a device workspace. Set one up first.
      </Alert>
    );
  // Spec §6: guests cannot create projects (the server refuses them too).
  else if (device.role === 'guest') body = <Alert severity="warning">{noPermissionMessage}</Alert>;
  else return <WizardLoader key={device.deviceId} deviceId={device.deviceId} userId={user.id} />;

  return (
    <Page section="Projects" title="Create project">
      {body}
    </Page>
  );
}

function WizardLoader({ deviceId, userId }: { deviceId: string; userId: string }) {
  const draft = useProjectDraft(deviceId);
  const device = useWorkspaceDetails(deviceId);
  let body;
  if (draft.error && !draft.data) {
    body =
      draft.error.status === 403 || draft.error.status === 404 ? (
        <Alert severity="warning">{draft.error.message}</Alert>
      ) : (
        <LoadFailure what="Your project draft" error={draft.error} retry={() => void draft.mutate()} />
      );
  } else if (device.error && !device.data)
    body = <LoadFailure what="The device" error={device.error} retry={() => void device.mutate()} />;
  else if (!draft.data || !device.data) body = <Loading what="your project draft" />;
  else
    return (
      <WizardFrame
        deviceId={deviceId}
        device={device.data}
        userId={userId}
        initial={draft.data.state ?? emptyProjectDraft()}
      />
    );
  return (
    <Page section="Projects" title="Create project">
      {body}
    </Page>
  );
}

interface WizardFrameProps {
  deviceId: string;
  device: Device;
  userId: string;
  initial: ProjectDraftState;
}

function WizardFrame({ deviceId, device, userId, initial }: WizardFrameProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const { mutate } = useSWRConfig();
  const [draft, setDraft] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState<'ask' | 'busy' | null>(null);
  const [discardError, setDiscardError] = useState<string | null>(null);
  // The latest draft for callbacks that run after awaits (state in closures would be stale); every change of
  // the draft goes through `change` or `save`, which keep it current.
  const draftRef = useRef(initial);

  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(saved), [draft, saved]);
  const [pageDirty, setPageDirtyState] = useState(false);
  const pageDirtyRef = useRef(false);
  const setPageDirty = useCallback((next: boolean) => {
    pageDirtyRef.current = next;
    setPageDirtyState(next);
  }, []);
  const leave = useLeaveConfirmation(dirty || pageDirty);

  const route = location.pathname.split('/').pop() as WizardRoute;
  const step = wizardRoutes[route] ?? draft.step;

  const change = useCallback((update: DraftChange) => {
    draftRef.current = applyChange(draftRef.current, update);
    setDraft(draftRef.current);
  }, []);

  const save = useCallback(
    async (update?: DraftChange) => {
      const next = applyChange(draftRef.current, update);
      draftRef.current = next;
      setDraft(next);
      setSaving(true);
      setSaveError(null);
      try {
        const answer = await saveProjectDraft(deviceId, next);
        setSaved(next);
        void mutate(creationUrls.draft(deviceId), answer, { revalidate: false });
        return true;
      } catch (error) {
        setSaveError(error instanceof Error ? error.message : 'The draft could not be saved.');
        return false;
      } finally {
        setSaving(false);
      }
    },
    [deviceId, mutate],
  );

  const { allowNextNavigation } = leave;
  const go = useCallback(
    async (target: WizardRoute, update?: DraftChange) => {
      const ok = await save((current) => ({ ...applyChange(current, update), step: wizardRoutes[target] }));
      if (!ok) return;
      // A page's own unsaved input (e.g. files still uploading) still asks before it is left.
      if (!pageDirtyRef.current) allowNextNavigation();
      void navigate(wizardPath(target));
    },
    [save, allowNextNavigation, navigate],
  );

  const wizard = useMemo<Wizard>(
    () => ({ deviceId, device, userId, draft, change, save, go, saving, saveError, setPageDirty, allowNextNavigation }),
    [deviceId, device, userId, draft, change, save, go, saving, saveError, setPageDirty, allowNextNavigation],
  );

  async function discard() {
    setDiscarding('busy');
    setDiscardError(null);
    try {
      await discardProjectDraft(deviceId);
      void mutate(creationUrls.draft(deviceId), { state: null, updatedAt: null }, { revalidate: false });
      allowNextNavigation();
      void navigate('/projects/overview');
    } catch (error) {
      setDiscardError(error instanceof Error ? error.message : 'The draft could not be discarded.');
      setDiscarding('ask');
    }
  }

  return (
    <WizardContext.Provider value={wizard}>
      <Page
        section="Projects"
        title="Create project"
        description="Title, virtual patient cohort, question of interest, device version and team. Your progress is saved after each step, so you can come back to it."
        actions={
          <Button color="inherit" onClick={() => setDiscarding('ask')}>
            Discard draft
          </Button>
        }
      >
        <Paper variant="outlined" sx={{ p: 2, mb: 3, borderRadius: 3, overflowX: 'auto' }}>
          <Stepper activeStep={step - 1} alternativeLabel nonLinear aria-label="Project creation steps">
            {projectCreationSteps.map((label, index) => {
              const number = index + 1;
              const reachable = number < step;
              return (
                <Step key={label} completed={number < step}>
                  {reachable ? (
                    <StepButton onClick={() => void go(stepRoutes[number]!)} disabled={saving}>
                      {label}
                    </StepButton>
                  ) : (
                    <StepLabel>{label}</StepLabel>
                  )}
                </Step>
              );
            })}
          </Stepper>
        </Paper>
        {saveError && (
          <Alert severity="error" sx={{ mb: 2 }}>
            Your progress could not be saved. {saveError}
          </Alert>
        )}
        <Outlet />
      </Page>
      {leave.dialog}
      <ConfirmDialog
        open={discarding !== null}
        title="Discard this project draft?"
        message="The title and everything chosen so far are removed. Cohorts, questions and device versions you created stay in the workspace."
        confirmLabel="Discard draft"
        busy={discarding === 'busy'}
        error={discardError}
        onConfirm={() => void discard()}
        onCancel={() => setDiscarding(null)}
      />
    </WizardContext.Provider>
  );
}

/** `/projects/create`: continues at the step the draft was saved on. */
export function ResumeWizard() {
  const { draft } = useWizard();
  return <Navigate to={wizardPath(stepRoutes[draft.step] ?? 'title')} replace />;
}
