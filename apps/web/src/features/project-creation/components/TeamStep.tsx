import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { ssmTooFewCode } from '@insilico/contracts';
import { useSignedInUser } from '../../../app/user/userContext';
import { useWorkspaceUsers, WorkspaceUserSearch } from '../../../components/WorkspaceUserSearch';
import { ApiError } from '../../../lib/apiError';
import { initialsOf } from '../../../lib/initials';
import { labelOf } from '../../../lib/labels';
import { fetchChosenDeviceVersions, unusableVersionIds, useChosenDeviceVersions } from '../../device-versions';
import { ssmListPath } from '../../ssm';
import { createProject, creationUrls } from '../api';
import { projectStatsPath } from '../paths';
import { useWizard } from '../wizardContext';
import {
  chosenCohorts,
  chosenVersions,
  createRequest,
  defaultStage,
  missingBeforeCreate,
  toggleId,
} from '../wizardState';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** Refusals that are fixed on the title step. */
const titleCodes = new Set(['invalid_title', 'project_title_taken']);
/** Refusals of the draft's SSMs (issue 18), fixed on the cohort step where they are listed. */
const ssmCodes = new Set([
  'ssm_exists',
  ssmTooFewCode,
  'cohort_not_in_project',
  'cohort_not_ready',
  'unknown_patient',
  'all_patients_excluded',
  'phase_missing',
]);

/** `/projects/create/team`: who works on the project (only users of the workspace, spec §5), then Finish. */
export function TeamStep() {
  const wizard = useWizard();
  const { deviceId, device, draft, change, save, go, saving, allowNextNavigation } = wizard;
  const me = useSignedInUser();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { users } = useWorkspaceUsers(deviceId);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const stage = defaultStage(draft, device.deviceDevPhase);
  const missing = missingBeforeCreate(draft, stage);
  // Versions that failed (or were deleted) are not counted and not sent: they cannot join the project.
  const versionIds = chosenVersions(draft);
  const current = useChosenDeviceVersions(deviceId, versionIds);
  const leftOut = current.data ? unusableVersionIds(versionIds, current.data.items) : [];

  async function finish() {
    setError(null);
    if (!stage) {
      await go('title');
      return;
    }
    setCreating(true);
    try {
      // The team is kept in the draft first, so a refused creation loses nothing.
      if (!(await save())) return;
      // Asked again right before creating: a version may have failed since the list above was read.
      const unusable = unusableVersionIds(versionIds, await fetchChosenDeviceVersions(deviceId, versionIds));
      const request = createRequest(draft, stage);
      const { id } = await createProject(deviceId, {
        ...request,
        versionIds: request.versionIds.filter((versionId) => !unusable.includes(versionId)),
      });
      void mutate(creationUrls.draft(deviceId), { state: null, updatedAt: null }, { revalidate: false });
      void mutate((key) => typeof key === 'string' && key.startsWith(creationUrls.projects(deviceId)));
      allowNextNavigation();
      // SSMs queued with the project show in progress on the project's SSM list until ready (spec §4).
      void navigate(draft.ssms.length > 0 ? ssmListPath(deviceId, id) : projectStatsPath(id));
    } catch (cause) {
      setError(cause instanceof ApiError ? cause : new ApiError(0, 'network', 'The project could not be created.'));
    } finally {
      setCreating(false);
    }
  }

  const nameOf = (userId: string) => users.find((user) => user.userId === userId);

  return (
    <div>
      <StepHeading title="Team">
        Add the people of your device workspace who work on this project. You are on the team as its creator.
      </StepHeading>
      <Stack spacing={3} sx={{ maxWidth: 720 }}>
        <WorkspaceUserSearch
          deviceId={deviceId}
          excludeUserIds={[me.id, ...draft.teamUserIds]}
          onSelect={(user) =>
            change((current) => ({ ...current, teamUserIds: toggleId(current.teamUserIds, user.userId, true) }))
          }
        />
        <List aria-label="Project team" dense>
          <ListItem>
            <ListItemAvatar>
              <Avatar src={me.pictureUrl ?? undefined} alt="">
                {initialsOf(me.fullName)}
              </Avatar>
            </ListItemAvatar>
            <ListItemText primary={me.fullName} secondary={me.email} />
            <Chip size="small" label="You · creator" />
          </ListItem>
          {draft.teamUserIds.map((userId) => {
            const user = nameOf(userId);
            const name = user?.fullName ?? 'A former member of the workspace';
            return (
              <ListItem
                key={userId}
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={`Remove ${name} from the team`}
                    onClick={() =>
                      change((current) => ({ ...current, teamUserIds: toggleId(current.teamUserIds, userId, false) }))
                    }
                  >
                    <CloseIcon />
                  </IconButton>
                }
              >
                <ListItemAvatar>
                  <Avatar src={user?.pictureUrl ?? undefined} alt="">
                    {initialsOf(name)}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText primary={name} secondary={user ? `${user.email} · ${labelOf(user.role)}` : undefined} />
              </ListItem>
            );
          })}
        </List>
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
          <Typography variant="subtitle2" component="h3">
            The new project
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {[
              draft.title.trim() || 'No title yet',
              stage ? labelOf(stage) : 'No development stage yet',
              `${chosenCohorts(draft).length} patient cohort(s)`,
              draft.questionId ? 'a question of interest' : 'no question of interest',
              `${versionIds.length - leftOut.length} device version(s)`,
              ...(draft.ssms.length > 0 ? [`${draft.ssms.length} SSM(s) to build`] : []),
              `${draft.teamUserIds.length + 1} in the team`,
            ].join(' · ')}
          </Typography>
        </Paper>
        {leftOut.length > 0 && (
          <Alert
            severity="info"
            action={
              <Button color="inherit" size="small" onClick={() => void go('device-version')}>
                Go there
              </Button>
            }
          >
            {leftOut.length === 1 ? 'A chosen device version' : `${leftOut.length} chosen device versions`} could not be
            processed and {leftOut.length === 1 ? 'is' : 'are'} left out of the project.
          </Alert>
        )}
        {missing && (
          <Alert
            severity="warning"
            action={
              <Button color="inherit" size="small" onClick={() => void go(missing.route)}>
                Go there
              </Button>
            }
          >
            {missing.text}
          </Alert>
        )}
        {error && (
          <Alert
            severity="error"
            action={
              titleCodes.has(error.code) ? (
                <Button color="inherit" size="small" onClick={() => void go('title')}>
                  Change the title
                </Button>
              ) : ssmCodes.has(error.code) ? (
                <Button color="inherit" size="small" onClick={() => void go('patient-cohort-list')}>
                  Review the SSMs
                </Button>
              ) : undefined
            }
          >
            {error.message}
          </Alert>
        )}
      </Stack>
      <StepActions
        onBack={() => void go('device-version')}
        onNext={() => void finish()}
        nextLabel="Create project"
        nextDisabled={missing !== null}
        busy={creating || saving}
      />
    </div>
  );
}
