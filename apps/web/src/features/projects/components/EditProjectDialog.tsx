import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  projectTitleMaxLength,
  projectTitleProblem,
  projectTitleTooLongMessage,
  type Project,
  type UpdateProject,
} from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { labelOf } from '../../../lib/labels';
import {
  addProjectCohort,
  addProjectVersion,
  removeProjectCohort,
  removeProjectVersion,
  updateProject,
  useReadyDeviceVersions,
  useWorkspaceCohorts,
  useWorkspaceQuestions,
} from '../api';

const messageOf = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

/** The title and the question of interest, saved together with the wizard's rules (contracts' `projectTitleProblem`). */
function TitleAndQuestion({ deviceId, project }: { deviceId: string; project: Project }) {
  const questions = useWorkspaceQuestions(deviceId);
  const [title, setTitle] = useState(project.name);
  const [questionId, setQuestionId] = useState(project.question?.id ?? '');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const problem = projectTitleProblem(title);
  // Too long is said at once (as in the wizard); empty once the field was left.
  const shownProblem = problem === projectTitleTooLongMessage || touched ? problem : null;
  const change: UpdateProject = {
    ...(title.trim() !== project.name ? { name: title } : {}),
    ...(questionId && questionId !== (project.question?.id ?? '') ? { questionId } : {}),
  };
  const changed = Object.keys(change).length > 0;

  async function save() {
    setTouched(true);
    if (problem || !changed) return;
    setSaving(true);
    setError(null);
    try {
      // The form starts afresh from the saved project (it is keyed by the saved values).
      await updateProject(deviceId, project.id, change);
    } catch (caught) {
      setError(messageOf(caught, 'The project could not be saved.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack
      component="form"
      noValidate
      spacing={2}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label="Project title"
        value={title}
        onChange={(event) => {
          setError(null);
          setTitle(event.target.value.slice(0, 200));
        }}
        onBlur={() => setTouched(true)}
        error={shownProblem !== null}
        helperText={shownProblem ?? `${[...title.trim()].length}/${projectTitleMaxLength} characters`}
        required
        fullWidth
      />
      <TextField
        select
        label="Question of interest"
        value={questions.data ? questionId : ''}
        onChange={(event) => {
          setError(null);
          setQuestionId(event.target.value);
        }}
        helperText={questions.error ? `The questions could not be loaded. ${questions.error.message}` : undefined}
        error={Boolean(questions.error)}
        disabled={!questions.data}
        fullWidth
      >
        {(questions.data?.items ?? []).map((question) => (
          <MenuItem key={question.id} value={question.id} sx={{ whiteSpace: 'normal' }}>
            {question.question}
          </MenuItem>
        ))}
      </TextField>
      {error && <Alert severity="error">{error}</Alert>}
      <div>
        <Button type="submit" variant="contained" disabled={!changed || saving}>
          {saving ? 'Saving…' : 'Save title and question'}
        </Button>
      </div>
    </Stack>
  );
}

interface Linked {
  id: string;
  name: string;
  status?: string;
}

/**
 * What a project has of one kind (cohorts or device versions): each with Remove (asking first; the server refuses
 * while rooms use it and the dialog says why), and an Add list of what the workspace has ready and the project not.
 */
function LinkedItems({
  what,
  items,
  options,
  loadError,
  onAdd,
  onRemove,
}: {
  what: 'patient cohort' | 'device version';
  items: readonly Linked[];
  options: readonly Linked[] | undefined;
  loadError: string | null;
  onAdd: (id: string) => Promise<void>;
  onRemove: (id: string) => Promise<void>;
}) {
  const [adding, setAdding] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Linked | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const addable = (options ?? []).filter((option) => !items.some((item) => item.id === option.id));
  const heading = what === 'patient cohort' ? 'Patient cohorts' : 'Device versions';

  async function add() {
    if (!adding) return;
    setBusy(true);
    setError(null);
    try {
      await onAdd(adding);
      setAdding('');
    } catch (caught) {
      setError(messageOf(caught, `The ${what} could not be added.`));
    } finally {
      setBusy(false);
    }
  }

  async function remove(item: Linked) {
    setBusy(true);
    setRemoveError(null);
    try {
      await onRemove(item.id);
      setRemoving(null);
    } catch (caught) {
      setRemoveError(messageOf(caught, `The ${what} could not be removed.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack spacing={1.5} component="section" aria-label={heading}>
      <Typography variant="h3" component="h3">
        {heading}
      </Typography>
      {items.length === 0 ? (
        <Typography color="text.secondary">No {what}s yet.</Typography>
      ) : (
        <List dense disablePadding aria-label={`${heading} of the project`}>
          {items.map((item) => (
            <ListItem
              key={item.id}
              disableGutters
              secondaryAction={
                <Button
                  size="small"
                  color="error"
                  onClick={() => {
                    setRemoveError(null);
                    setRemoving(item);
                  }}
                  aria-label={`Remove ${item.name}`}
                >
                  Remove
                </Button>
              }
            >
              <ListItemText primary={item.name} />
              {item.status && item.status !== 'ready' && (
                <Chip size="small" label={labelOf(item.status)} sx={{ mr: 10 }} />
              )}
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          select
          size="small"
          label={`Add a ${what}`}
          value={adding}
          onChange={(event) => setAdding(event.target.value)}
          disabled={!options || addable.length === 0 || busy}
          helperText={
            loadError ??
            (options && addable.length === 0 ? `No other ready ${what} in this workspace.` : `Only ready ${what}s.`)
          }
          error={loadError !== null}
          sx={{ minWidth: 280 }}
        >
          {addable.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" onClick={() => void add()} disabled={!adding || busy}>
          Add
        </Button>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''} from the project?`}
        message={`The ${what} stays in the workspace; you can add it again later.`}
        confirmLabel="Remove"
        busy={busy}
        error={removeError}
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}

/**
 * "Edit project" (issue 14 item 16; docs/decisions/project-editing.md): title and question of interest, patient
 * cohorts and device versions of a project, for those who may manage it.
 */
export function EditProjectDialog({
  deviceId,
  project,
  open,
  onClose,
}: {
  deviceId: string;
  project: Project;
  open: boolean;
  onClose: () => void;
}) {
  const cohorts = useWorkspaceCohorts(open ? deviceId : null);
  const versions = useReadyDeviceVersions(open ? deviceId : null);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-project-title">
      <DialogTitle id="edit-project-title">Edit project</DialogTitle>
      <DialogContent>
        <Stack spacing={3} sx={{ pt: 1 }} divider={<Divider flexItem />}>
          {/* Keyed by the saved values, so a change saved elsewhere starts the form afresh. */}
          <TitleAndQuestion
            key={`${project.name}|${project.question?.id ?? ''}`}
            deviceId={deviceId}
            project={project}
          />
          <LinkedItems
            what="patient cohort"
            items={project.cohorts}
            options={cohorts.data?.items.filter((cohort) => cohort.status === 'ready')}
            loadError={cohorts.error ? `The cohorts could not be loaded. ${cohorts.error.message}` : null}
            onAdd={(id) => addProjectCohort(deviceId, project.id, id)}
            onRemove={(id) => removeProjectCohort(deviceId, project.id, id)}
          />
          <LinkedItems
            what="device version"
            items={project.deviceVersions}
            options={versions.data?.items}
            loadError={versions.error ? `The device versions could not be loaded. ${versions.error.message}` : null}
            onAdd={(id) => addProjectVersion(deviceId, project.id, id)}
            onRemove={(id) => removeProjectVersion(deviceId, project.id, id)}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
