import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import TableContainer from '@mui/material/TableContainer';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import SearchIcon from '@mui/icons-material/Search';
import { roleRefusalMessages, type DeviceSummary, type MemberRole } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { ApiError } from '../../../lib/apiError';
import { isWorkspaceProjectsKey, subscriptionKey } from '../../../lib/workspaceKeys';
import { useSignedInUser } from '../../../app/user/userContext';
import { devicesKey, selectedDeviceKey, useDevices, useSelectedDevice } from '../../devices';
import { approveMember, changeRole, removeMember, revokeInvitation, useTeam } from '../api';
import { displayName, orderTeam, pageOf, rowKey, searchTeam } from '../teamRows';
import { AddUserDrawer } from './AddUserDrawer';
import { TeamTable, type RowRequest } from './TeamTable';

const rowsPerPageOptions = [10, 25, 50];

type Confirmable = Extract<RowRequest, { kind: 'decline' | 'remove' | 'revoke' }>;

function confirmText(request: Confirmable, deviceName: string) {
  const name = displayName(request.member);
  switch (request.kind) {
    case 'decline':
      return {
        title: `Decline ${name}?`,
        message: `${name} will not get access to “${deviceName}”. You can invite them again later.`,
        label: 'Decline',
      };
    case 'remove':
      return {
        title: `Remove ${name}?`,
        message: `${name} loses access to “${deviceName}” at once. You can invite them again later.`,
        label: 'Remove',
      };
    case 'revoke':
      return {
        title: `Revoke the invitation of ${name}?`,
        message: `The link mailed to ${request.member.info} stops working. You can send a new invitation later.`,
        label: 'Revoke',
      };
  }
}

const withArticle = (role: MemberRole) => (role === 'admin' ? 'an admin' : `a ${role}`);

function message(caught: unknown): string {
  return caught instanceof ApiError ? caught.message : 'Something went wrong. Please try again.';
}

function TeamOf({ device }: { device: DeviceSummary }) {
  const user = useSignedInUser();
  const { mutate } = useSWRConfig();
  // Guests may not see the team: told at once, without asking the server for a refusal.
  const guest = device.role === 'guest';
  const team = useTeam(guest ? null : device.deviceId);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(rowsPerPageOptions[0]!);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  async function run(request: RowRequest): Promise<boolean> {
    const { member } = request;
    setBusyKey(rowKey(member));
    setActionError(null);
    try {
      const id = device.deviceId;
      if (request.kind === 'changeRole') await changeRole(id, member.userId!, request.role);
      else if (request.kind === 'accept') await approveMember(id, member.userId!);
      else if (request.kind === 'revoke') await revokeInvitation(id, member.invitationId!);
      else await removeMember(id, member.userId!);
      const name = displayName(member);
      setNotice(
        {
          changeRole: `${name} is now ${request.kind === 'changeRole' ? withArticle(request.role) : ''}.`,
          accept: `${name} can now work in “${device.deviceName}”.`,
          decline: `${name} was declined.`,
          remove: `${name} was removed from the team.`,
          revoke: `The invitation of ${name} was revoked.`,
        }[request.kind],
      );
      // One's own role decides what the shell offers (e.g. admin-only settings).
      if (member.userId === user.id) await Promise.all([mutate(devicesKey), mutate(selectedDeviceKey)]);
      // Seats are taken by members and open invitations; a member taken out leaves every project team too.
      if (request.kind !== 'changeRole') void mutate(subscriptionKey(id));
      if (request.kind === 'remove' || request.kind === 'decline') void mutate(isWorkspaceProjectsKey(id));
      return true;
    } catch (caught) {
      if (request.kind === 'changeRole' || request.kind === 'accept') setActionError(message(caught));
      else setConfirmError(message(caught));
      return false;
    } finally {
      setBusyKey(null);
      await team.mutate();
    }
  }

  function request(next: RowRequest) {
    if (next.kind === 'changeRole' || next.kind === 'accept') void run(next);
    else {
      setConfirmError(null);
      setConfirming(next);
    }
  }

  const addUser = team.data?.canManage ? (
    <Button
      variant="contained"
      startIcon={<PersonAddAlt1OutlinedIcon aria-hidden="true" />}
      onClick={() => setDrawerOpen(true)}
    >
      Add user
    </Button>
  ) : undefined;

  let body;
  if (guest) {
    body = <Alert severity="warning">{roleRefusalMessages.team}</Alert>;
  } else if (team.error && !team.data) {
    body =
      team.error.status === 403 ? (
        <Alert severity="warning">{team.error.message}</Alert>
      ) : (
        <LoadFailure what="The team" error={team.error} retry={() => void team.mutate()} />
      );
  } else if (!team.data) {
    body = <Loading what="the team" />;
  } else {
    const found = orderTeam(searchTeam(team.data.items, search));
    const shown = pageOf(found, page, rowsPerPage);
    body = (
      <Stack spacing={2}>
        {!team.data.canManage && (
          <Alert severity="info">Only an admin of this device can invite, accept or remove team members.</Alert>
        )}
        {actionError && (
          <Alert severity="error" role="alert" onClose={() => setActionError(null)}>
            {actionError}
          </Alert>
        )}
        <TextField
          type="search"
          label="Search the team"
          placeholder="Name or e-mail"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
          sx={{ maxWidth: 360 }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
          {found.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3 }}>
              {search.trim() ? `No team member matches “${search.trim()}”.` : 'Nobody is in the team yet.'}
            </Typography>
          ) : (
            <TableContainer>
              <TeamTable
                rows={shown.rows}
                canManage={team.data.canManage}
                ownUserId={user.id}
                busyKey={busyKey}
                onRequest={request}
              />
            </TableContainer>
          )}
          {found.length > rowsPerPageOptions[0]! && (
            <TablePagination
              component="div"
              count={found.length}
              page={shown.page}
              rowsPerPage={rowsPerPage}
              rowsPerPageOptions={rowsPerPageOptions}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setRowsPerPage(Number(event.target.value));
                setPage(0);
              }}
            />
          )}
        </Paper>
      </Stack>
    );
  }

  const text = confirming ? confirmText(confirming, device.deviceName) : null;
  return (
    <Page
      title="Manage team"
      section={`Settings · ${device.deviceName}`}
      description="Who works in this device workspace, with which role."
      actions={addUser}
    >
      {body}
      {team.data?.canManage && (
        <AddUserDrawer
          open={drawerOpen}
          deviceId={device.deviceId}
          deviceName={device.deviceName}
          onClose={() => setDrawerOpen(false)}
          onInvited={(email) => {
            setDrawerOpen(false);
            setNotice(`Invitation sent to ${email}.`);
            void team.mutate();
            void mutate(subscriptionKey(device.deviceId));
          }}
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={text?.title ?? ''}
        message={text?.message ?? ''}
        confirmLabel={text?.label ?? 'Confirm'}
        busy={confirming !== null && busyKey === rowKey(confirming.member)}
        error={confirmError}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          void run(confirming).then((done) => {
            if (done) setConfirming(null);
          });
        }}
      />
      <Snackbar
        open={notice !== null}
        autoHideDuration={6000}
        onClose={() => setNotice(null)}
        message={notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </Page>
  );
}

/**
 * /manage-team: the team of the selected workspace, or of the one `?device=` names (the link of the "waits for your
 * approval" notification, which may reach an admin working in another workspace); admins manage it, members read it.
 */
export function ManageTeamPage() {
  const [params] = useSearchParams();
  const named = params.get('device');
  const selected = useSelectedDevice();
  const devices = useDevices();
  const namedDevice = named
    ? devices.data?.items.find((item) => item.deviceId === named && item.userStatus === 'ok')
    : undefined;
  // A named workspace waits for the list; one the user is not (or no longer) in falls back to the selected one.
  const waitingForNamed = named !== null && !devices.data && !devices.error;
  const device = namedDevice ?? (waitingForNamed ? undefined : selected.data?.device);
  if (device) return <TeamOf key={device.deviceId} device={device} />;

  let body;
  if (waitingForNamed) {
    body = <Loading what="your workspace" />;
  } else if (selected.error && !selected.data) {
    body = <LoadFailure what="Your workspace" error={selected.error} retry={() => void selected.mutate()} />;
  } else if (!selected.data) {
    body = <Loading what="your workspace" />;
  } else {
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/devices/setup" color="inherit" size="small">
            Set up a device
          </Button>
        }
      >
        You have no device workspace to manage yet (or an admin still has to accept you).
      </Alert>
    );
  }
  return (
    <Page title="Manage team" section="Settings">
      {body}
    </Page>
  );
}
