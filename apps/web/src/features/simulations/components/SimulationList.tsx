import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  simulationNameMaxLength,
  simulationNameTakenMessage,
  simulationPageSizes,
  type Simulation,
  type SimulationListQuery,
  type SimulationStatus,
} from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import ReplayIcon from '@mui/icons-material/Replay';
import SearchIcon from '@mui/icons-material/Search';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { RenameField } from '../../../components/RenameField';
import { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import {
  cancelSimulation,
  deleteSimulation,
  isActive,
  renameSimulation,
  resultsPath,
  retrySimulation,
  useRefreshSimulations,
  useSimulationList,
  type SimulationScope,
} from '../api';
import { progressText, resolutionLabels, statusLabels } from '../setupForm';

export interface SimulationListProps {
  scope: SimulationScope;
  /** The heading (a room's panel and the project's section name it differently). */
  title: string;
}

type SortKey = SimulationListQuery['sort'];

const statusColours: Record<SimulationStatus, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  queued: 'default',
  running: 'info',
  completed: 'success',
  failed: 'error',
  cancelled: 'warning',
};

const kindLabels: Record<Simulation['kind'], string> = { solid: 'Solid', fluid: 'Fluid', particle: 'Particle' };

/** How long the search waits for typing to pause, ms. */
const searchDelayMs = 300;

const initialQuery: SimulationListQuery = { search: '', sort: 'createdAt', order: 'desc', page: 1, pageSize: 10 };

/**
 * The simulation list of spec §3 (issue 16 item 4), of one room or of the whole project (with each room): name
 * renamed in place (unique per room), status, progress with simulated time, percent and ETA refreshed while a run
 * is queued or running, device version, created by, creation date DD.MM.YYYY; search, sort and paging by the
 * server; open results, cancel, retry, and delete after a confirmation. Every change refreshes every list.
 */
export function SimulationList({ scope, title }: SimulationListProps) {
  const [query, setQuery] = useState<SimulationListQuery>(initialQuery);
  const [typed, setTyped] = useState('');
  const list = useSimulationList(scope, query);
  const refresh = useRefreshSimulations();
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Simulation | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(
      () =>
        setQuery((before) => (before.search === typed.trim() ? before : { ...before, search: typed.trim(), page: 1 })),
      searchDelayMs,
    );
    return () => clearTimeout(timer);
  }, [typed]);

  const { deviceId, projectId } = scope;
  const page = list.data;
  const canRun = page?.canRun ?? false;

  const act = async (simulation: Simulation, action: 'cancel' | 'retry') => {
    setBusy(simulation.id);
    setActionError(null);
    try {
      await (action === 'cancel' ? cancelSimulation : retrySimulation)(deviceId, projectId, simulation.id);
      await refresh(deviceId, projectId);
    } catch (caught) {
      setActionError(caught instanceof ApiError ? caught.message : `The simulation could not be changed.`);
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(deleting.id);
    setDeleteError(null);
    try {
      await deleteSimulation(deviceId, projectId, deleting.id);
      setDeleting(null);
      await refresh(deviceId, projectId);
    } catch (caught) {
      setDeleteError(caught instanceof ApiError ? caught.message : 'The simulation could not be deleted.');
    } finally {
      setBusy(null);
    }
  };

  const rename = (simulation: Simulation) => async (name: string) => {
    try {
      await renameSimulation(deviceId, projectId, simulation.id, name);
      await refresh(deviceId, projectId);
      return 'saved' as const;
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) return 'duplicate' as const;
      throw caught;
    }
  };

  const sortBy = (key: SortKey) =>
    setQuery((before) => ({
      ...before,
      sort: key,
      order: before.sort === key && before.order === 'asc' ? 'desc' : 'asc',
      page: 1,
    }));
  const header = (key: SortKey, label: string) => (
    <TableSortLabel
      active={query.sort === key}
      direction={query.sort === key ? query.order : 'asc'}
      onClick={() => sortBy(key)}
    >
      {label}
    </TableSortLabel>
  );
  const sortDirection = (key: SortKey) =>
    query.sort === key ? (query.order === 'asc' ? 'ascending' : 'descending') : undefined;

  const titleId = `simulations-${scope.roomId ?? 'project'}-title`;
  return (
    <Stack component="section" aria-labelledby={titleId} spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography id={titleId} variant="h6" component="h3" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <TextField
          size="small"
          label="Search simulations"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Stack>
      {actionError && (
        <Alert severity="error" role="alert" onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      {list.error && !page ? (
        <LoadFailure what="The simulations" error={list.error} retry={() => void list.mutate()} />
      ) : !page ? (
        <Loading what="the simulations" />
      ) : page.total === 0 ? (
        <Typography color="text.secondary">
          {query.search ? 'No simulation matches the search.' : 'No simulation yet.'}
        </Typography>
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell aria-sort={sortDirection('name')}>{header('name', 'Name')}</TableCell>
                  {!scope.roomId && <TableCell>Room</TableCell>}
                  <TableCell aria-sort={sortDirection('status')}>{header('status', 'Status')}</TableCell>
                  <TableCell aria-sort={sortDirection('progress')} sx={{ minWidth: 180 }}>
                    {header('progress', 'Progress')}
                  </TableCell>
                  <TableCell>Device version</TableCell>
                  <TableCell>Created by</TableCell>
                  <TableCell aria-sort={sortDirection('createdAt')}>{header('createdAt', 'Created')}</TableCell>
                  <TableCell align="right">
                    <Box component="span" sx={visuallyHidden}>
                      Actions
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {page.items.map((simulation) => (
                  <TableRow key={simulation.id} data-testid="simulation-row" data-status={simulation.status}>
                    <TableCell sx={{ maxWidth: 280 }}>
                      <RenameField
                        value={simulation.name}
                        noun="simulation"
                        editable={canRun}
                        variant="body2"
                        maxLength={simulationNameMaxLength}
                        duplicateMessage={simulationNameTakenMessage}
                        otherNames={page.items
                          .filter((other) => other.roomId === simulation.roomId && other.id !== simulation.id)
                          .map((other) => other.name)}
                        onRename={rename(simulation)}
                      />
                      <Typography variant="caption" color="text.secondary">
                        {kindLabels[simulation.kind]} · {resolutionLabels[simulation.resolution]}
                      </Typography>
                    </TableCell>
                    {!scope.roomId && (
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={`/projects/room?${new URLSearchParams({ project: projectId, room: simulation.roomId, device: deviceId }).toString()}`}
                        >
                          {simulation.roomName}
                        </Link>
                      </TableCell>
                    )}
                    <TableCell>
                      <Tooltip title={simulation.error ?? ''}>
                        <Chip
                          size="small"
                          label={statusLabels[simulation.status]}
                          color={statusColours[simulation.status]}
                        />
                      </Tooltip>
                    </TableCell>
                    <TableCell>
                      <LinearProgress
                        variant="determinate"
                        value={Math.round(simulation.progress * 100)}
                        aria-label={`Progress of ${simulation.name}`}
                        sx={{ mb: 0.5 }}
                      />
                      <Typography variant="caption" data-testid="simulation-progress">
                        {progressText(simulation)}
                      </Typography>
                      {simulation.status === 'failed' && simulation.error && (
                        <Typography variant="caption" color="error" component="p">
                          {simulation.error}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{simulation.deviceVersion?.name ?? '—'}</TableCell>
                    <TableCell>{simulation.createdBy?.name ?? 'A former member'}</TableCell>
                    <TableCell>{formatDate(simulation.createdAt)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {simulation.status !== 'queued' && (
                        <Button size="small" component={RouterLink} to={resultsPath(deviceId, simulation)}>
                          Open results
                        </Button>
                      )}
                      {canRun && isActive(simulation) && (
                        <Tooltip title="Cancel the run">
                          <span>
                            <IconButton
                              size="small"
                              aria-label={`Cancel ${simulation.name}`}
                              disabled={busy === simulation.id}
                              onClick={() => void act(simulation, 'cancel')}
                            >
                              <StopCircleOutlinedIcon fontSize="small" />
                            </IconButton>
                          </span>
                        </Tooltip>
                      )}
                      {canRun && (simulation.status === 'failed' || simulation.status === 'cancelled') && (
                        <Tooltip title="Run it again">
                          <span>
                            <IconButton
                              size="small"
                              aria-label={`Retry ${simulation.name}`}
                              disabled={busy === simulation.id}
                              onClick={() => void act(simulation, 'retry')}
                            >
                              <ReplayIcon fontSize="small" />
                            </IconButton>
                          </span>
                        </Tooltip>
                      )}
                      {canRun && (
                        <Tooltip title="Delete">
                          <span>
                            <IconButton
                              size="small"
                              aria-label={`Delete ${simulation.name}`}
                              disabled={busy === simulation.id}
                              onClick={() => {
                                setDeleteError(null);
                                setDeleting(simulation);
                              }}
                            >
                              <DeleteOutlineIcon fontSize="small" />
                            </IconButton>
                          </span>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={page.total}
            page={query.page - 1}
            rowsPerPage={query.pageSize}
            rowsPerPageOptions={[...simulationPageSizes]}
            onPageChange={(_event, next) => setQuery((before) => ({ ...before, page: next + 1 }))}
            onRowsPerPageChange={(event) =>
              setQuery((before) => ({ ...before, pageSize: Number(event.target.value), page: 1 }))
            }
          />
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete simulation?"
        message={`${deleting?.name ?? ''} and all its results will be deleted. This cannot be undone.`}
        confirmLabel="Delete"
        busy={deleting !== null && busy === deleting.id}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
