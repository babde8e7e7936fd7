import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Room, RoomListQuery, roomPageSizes } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { ApiError } from '../../../lib/apiError';
import { deleteRoom, renameRoom, roomScenePath, useRefreshRooms, useRooms } from '../api';
import { ProjectSimulations } from '../../simulations';
import { ProjectTrials } from '../../trials';
import { useRoomLocation } from '../hooks/useRoomLocation';
import { CreateRoomDialog } from './CreateRoomDialog';
import { RoomCard } from './RoomCard';
import { ShareRoomDialog } from './ShareRoomDialog';

const pageSize: (typeof roomPageSizes)[number] = 24;
/** Typing in the search waits this long before asking the server. */
const searchDelayMs = 300;

const ANY = '';

/**
 * The Rooms tab of a project (spec §2): saved rooms with their latest screenshot; filters by patient, by SSM and by
 * having a simulation; search by name; create on a patient of the project's cohorts; rename in place, share, delete.
 */
export function ProjectRoomsTab() {
  const { deviceId, projectId, loading, error } = useRoomLocation();
  const navigate = useNavigate();
  const refreshRooms = useRefreshRooms();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [patient, setPatient] = useState(ANY);
  const [ssm, setSsm] = useState(ANY);
  const [simulation, setSimulation] = useState<RoomListQuery['hasSimulation']>('any');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [sharing, setSharing] = useState<Room | null>(null);
  const [deleting, setDeleting] = useState<Room | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, searchDelayMs);
    return () => clearTimeout(timer);
  }, [typed]);

  const [cohortId, patientId] = patient === ANY ? [undefined, undefined] : patient.split('|');
  const query: RoomListQuery = {
    search,
    cohortId,
    patientId,
    ssmId: ssm === ANY ? undefined : ssm,
    subject: 'any',
    hasSimulation: simulation,
    page,
    pageSize,
  };
  const rooms = useRooms(deviceId, projectId, query);

  if (!projectId)
    return (
      <Page title="Rooms" section="Project">
        <Alert severity="info">Open a project from the projects overview to see its rooms.</Alert>
      </Page>
    );
  if (error)
    return (
      <Page title="Rooms" section="Project">
        <Alert severity="error">{error}</Alert>
      </Page>
    );
  if (loading || !deviceId)
    return (
      <Page title="Rooms" section="Project">
        <Loading what="the rooms" />
      </Page>
    );

  const refresh = () => refreshRooms(deviceId, projectId);
  const data = rooms.data;
  const canEdit = data?.canEdit ?? false;
  const filtered = search !== '' || patient !== ANY || ssm !== ANY || simulation !== 'any';
  const names = data?.items.map((room) => room.name) ?? [];

  const rename = async (room: Room, name: string) => {
    try {
      await refreshRooms(deviceId, projectId, await renameRoom(deviceId, projectId, room.id, name));
      return 'saved' as const;
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) return 'duplicate' as const;
      throw caught;
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteRoom(deviceId, projectId, deleting.id);
      setDeleting(null);
      await refresh();
    } catch (caught) {
      setDeleteError((caught as ApiError).message);
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <Page
      title="Rooms"
      section="Project"
      description="Rooms on the project’s virtual patients, with device versions placed in their anatomy."
      actions={
        canEdit && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            New room
          </Button>
        )
      }
    >
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField
            label="Search rooms"
            size="small"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            sx={{ flex: 2 }}
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
          <TextField
            select
            size="small"
            label="Patient"
            value={patient}
            onChange={(event) => {
              setPatient(event.target.value);
              setPage(1);
            }}
            sx={{ flex: 1, minWidth: 180 }}
          >
            <MenuItem value={ANY}>All patients</MenuItem>
            {data?.facets.patients.map((option) => (
              <MenuItem key={`${option.cohortId}|${option.patientId}`} value={`${option.cohortId}|${option.patientId}`}>
                {option.patientId} · {option.cohortName}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="SSM"
            value={ssm}
            onChange={(event) => {
              setSsm(event.target.value);
              setPage(1);
            }}
            sx={{ flex: 1, minWidth: 160 }}
          >
            <MenuItem value={ANY}>All SSMs</MenuItem>
            {data && data.facets.ssms.length === 0 && (
              <MenuItem disabled value="none">
                No room is on an SSM yet
              </MenuItem>
            )}
            {data?.facets.ssms.map((option) => (
              <MenuItem key={option.ssmId} value={option.ssmId}>
                {option.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Simulation"
            value={simulation}
            onChange={(event) => {
              setSimulation(event.target.value as RoomListQuery['hasSimulation']);
              setPage(1);
            }}
            sx={{ flex: 1, minWidth: 170 }}
          >
            <MenuItem value="any">With or without</MenuItem>
            <MenuItem value="yes">Has a simulation</MenuItem>
            <MenuItem value="no">No simulation</MenuItem>
          </TextField>
        </Stack>
      </Paper>

      {rooms.error && !data ? (
        <LoadFailure what="The rooms" error={rooms.error} retry={() => void rooms.mutate()} />
      ) : !data ? (
        <Loading what="the rooms" />
      ) : data.items.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }} role="status">
          <Typography variant="h6" component="p">
            {filtered ? 'No room matches these filters.' : 'This project has no rooms yet.'}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {filtered
              ? 'Change the search or the filters to see more rooms.'
              : canEdit
                ? 'Create a room on a patient of the project’s cohorts to place device versions in their anatomy.'
                : 'Rooms created by the project team appear here.'}
          </Typography>
        </Paper>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} role="status">
            {data.total === 1 ? '1 room' : `${data.total} rooms`}
          </Typography>
          <Grid container spacing={2} component="section" aria-label="Rooms">
            {data.items.map((room) => (
              <Grid key={room.id} size={{ xs: 12, sm: 6, md: 4 }}>
                <RoomCard
                  room={room}
                  canEdit={canEdit}
                  otherNames={names.filter((name) => name !== room.name)}
                  onRename={(name) => rename(room, name)}
                  onShare={() => setSharing(room)}
                  onDelete={() => {
                    setDeleteError(null);
                    setDeleting(room);
                  }}
                />
              </Grid>
            ))}
          </Grid>
          {data.total > pageSize && (
            <Pagination
              sx={{ mt: 3, display: 'flex', justifyContent: 'center' }}
              count={Math.ceil(data.total / pageSize)}
              page={page}
              onChange={(_event, value) => setPage(value)}
            />
          )}
        </>
      )}

      <Box sx={{ mt: 4 }}>
        <ProjectSimulations deviceId={deviceId} projectId={projectId} />
      </Box>
      <Box sx={{ mt: 4 }}>
        <ProjectTrials deviceId={deviceId} projectId={projectId} />
      </Box>

      {data && creating && (
        <CreateRoomDialog
          open
          deviceId={deviceId}
          projectId={projectId}
          cohorts={data.cohorts}
          onClose={() => setCreating(false)}
          onCreated={(room) => {
            setCreating(false);
            void refresh();
            void navigate(roomScenePath(projectId, room.id));
          }}
        />
      )}
      {sharing && (
        <ShareRoomDialog
          key={sharing.id}
          deviceId={deviceId}
          projectId={projectId}
          room={sharing}
          onClose={() => setSharing(null)}
          onShared={() => {
            setSharing(null);
            void refresh();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete room?"
        message={`The room ${deleting?.name ?? ''} is deleted with its device placements and screenshots. This cannot be undone.`}
        confirmLabel="Delete room"
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </Page>
  );
}
