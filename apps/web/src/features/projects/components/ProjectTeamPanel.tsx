import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import { lastTeamMemberMessage, type ProjectPerson } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { WorkspaceUserSearch, type WorkspaceUser } from '../../../components/WorkspaceUserSearch';
import { ApiError } from '../../../lib/apiError';
import { labelOf } from '../../../lib/labels';
import { addProjectMember, removeProjectMember } from '../api';

const messageOf = (cause: unknown, fallback: string) => (cause instanceof ApiError ? cause.message : fallback);

interface ProjectTeamPanelProps {
  deviceId: string;
  projectId: string;
  team: readonly ProjectPerson[];
  /** Add and remove (project.manage); others see the team read-only. */
  canManage: boolean;
}

/**
 * The project team (issue 5 item 5): who is on it; with the right to manage, add people of the workspace (the
 * searchable select says the spec's message when nobody matches) and remove them after asking. Removing the last
 * user is refused (spec §4 "Project status"): the dialog says so with the spec's suggestion instead of offering a
 * Remove the server would refuse (it refuses it too).
 */
export function ProjectTeamPanel({ deviceId, projectId, team, canManage }: ProjectTeamPanelProps) {
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ProjectPerson | null>(null);
  const [busy, setBusy] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const teamIds = useMemo(() => team.map((person) => person.id), [team]);

  async function add(user: WorkspaceUser) {
    setAdding(true);
    setAddError(null);
    setAdded(null);
    try {
      await addProjectMember(deviceId, projectId, user.userId);
      setAdded(`${user.fullName} was added to the team.`);
    } catch (cause) {
      setAddError(messageOf(cause, 'The user could not be added.'));
    } finally {
      setAdding(false);
    }
  }

  async function remove(person: ProjectPerson) {
    setBusy(true);
    setRemoveError(null);
    try {
      await removeProjectMember(deviceId, projectId, person.id);
      setRemoving(null);
    } catch (cause) {
      setRemoveError(messageOf(cause, 'The user could not be removed.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack spacing={2}>
      <List dense aria-label="Project team" disablePadding>
        {team.map((person) => (
          <ListItem
            key={person.id}
            disableGutters
            secondaryAction={
              canManage ? (
                <Tooltip title="Remove from the project">
                  <IconButton
                    edge="end"
                    aria-label={`Remove ${person.name} from the project`}
                    onClick={() => {
                      setRemoveError(null);
                      setRemoving(person);
                    }}
                  >
                    <PersonRemoveOutlinedIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : undefined
            }
          >
            <ListItemAvatar sx={{ minWidth: 44 }}>
              <Avatar
                alt={person.name}
                src={person.pictureUrl ?? undefined}
                sx={{ width: 32, height: 32, fontSize: 13 }}
              >
                {person.initials}
              </Avatar>
            </ListItemAvatar>
            <ListItemText
              primary={person.name}
              secondary={person.role ? labelOf(person.role) : 'No longer in this device workspace'}
            />
          </ListItem>
        ))}
      </List>
      {canManage && (
        <>
          <WorkspaceUserSearch
            deviceId={deviceId}
            excludeUserIds={teamIds}
            onSelect={(user) => void add(user)}
            disabled={adding}
          />
          {addError && (
            <Alert severity="error" role="alert" onClose={() => setAddError(null)}>
              {addError}
            </Alert>
          )}
          {added && (
            <Alert severity="success" onClose={() => setAdded(null)}>
              {added}
            </Alert>
          )}
        </>
      )}
      {team.length <= 1 ? (
        <ConfirmDialog
          open={removing !== null}
          title="The last user cannot be removed"
          message={lastTeamMemberMessage}
          onCancel={() => setRemoving(null)}
        />
      ) : (
        <ConfirmDialog
          open={removing !== null}
          title="Remove from the project?"
          message={removing ? `${removing.name} will no longer be on the team of this project.` : ''}
          confirmLabel="Remove"
          busy={busy}
          error={removeError}
          onConfirm={() => removing && void remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </Stack>
  );
}
