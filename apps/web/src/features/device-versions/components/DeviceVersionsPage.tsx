import { useDeferredValue, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { DeviceVersionStatus } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { useDeviceVersions } from '../api';
import { useVersionsDevice } from '../hooks/useVersionsDevice';
import { newDeviceVersionPath } from '../paths';
import { DeviceVersionCard } from './DeviceVersionCard';

const pageSize = 10;
const statusFilters: { value: string; label: string; statuses: DeviceVersionStatus[] }[] = [
  { value: 'all', label: 'All', statuses: [] },
  { value: 'ready', label: 'Ready', statuses: ['ready'] },
  { value: 'processing', label: 'Processing', statuses: ['uploading', 'processing'] },
  { value: 'failed', label: 'Failed', statuses: ['failed'] },
];

function VersionList({
  deviceId,
  highlight,
  canCreate,
}: {
  deviceId: string;
  highlight: string | null;
  canCreate: boolean;
}) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('all');
  const [page, setPage] = useState(1);
  const deferredSearch = useDeferredValue(search);
  const statuses = statusFilters.find((option) => option.value === filter)?.statuses ?? [];
  const versions = useDeviceVersions(deviceId, { search: deferredSearch, status: statuses, page, pageSize });
  const filtered = deferredSearch.trim() !== '' || filter !== 'all';

  let body;
  if (versions.error && !versions.data)
    body = <LoadFailure what="The device versions" error={versions.error} retry={() => void versions.mutate()} />;
  else if (!versions.data) body = <Loading what="the device versions" />;
  else if (versions.data.items.length === 0)
    body = (
      <Paper variant="outlined" sx={{ p: 4, borderRadius: 2, textAlign: 'center' }}>
        <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
          {filtered ? 'No device version matches' : 'No device versions yet'}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: filtered || !canCreate ? 0 : 2 }}>
          {filtered
            ? 'Change the search or the status filter.'
            : canCreate
              ? 'Upload the 3D model of your device (.stl files) to test it on virtual patients.'
              : 'The device versions of your projects will show here.'}
        </Typography>
        {!filtered && canCreate && (
          <Button
            component={RouterLink}
            to={newDeviceVersionPath}
            variant="contained"
            startIcon={<AddIcon aria-hidden="true" />}
          >
            New device version
          </Button>
        )}
      </Paper>
    );
  else
    body = (
      <Stack spacing={2}>
        {versions.data.items.map((version) => (
          <DeviceVersionCard
            key={version.id}
            deviceId={deviceId}
            version={version}
            highlighted={version.id === highlight}
            canDelete={canCreate}
          />
        ))}
      </Stack>
    );

  const pages = versions.data ? Math.max(1, Math.ceil(versions.data.total / pageSize)) : 1;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          type="search"
          label="Search by name"
          size="small"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          sx={{ minWidth: 260 }}
        />
        <TextField
          select
          label="Status"
          size="small"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            setPage(1);
          }}
          sx={{ minWidth: 160 }}
        >
          {statusFilters.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {versions.data && (
        <Typography variant="body2" color="text.secondary" role="status">
          {versions.data.total} {versions.data.total === 1 ? 'device version' : 'device versions'}
        </Typography>
      )}
      {body}
      {pages > 1 && (
        <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} aria-label="Pages of versions" />
      )}
    </Stack>
  );
}

/** `/device-versions`: the workspace's device versions with files, metrics, previews, status and downloads. */
export function DeviceVersionsPage() {
  const [params] = useSearchParams();
  const workspace = useVersionsDevice();
  return (
    <Page
      title="Device versions"
      description="The 3D models (.stl) of your device, checked and measured. Versions are added to projects when a project is created or from its team."
      actions={
        workspace.canCreate && (
          <Button
            component={RouterLink}
            to={newDeviceVersionPath}
            variant="contained"
            startIcon={<AddIcon aria-hidden="true" />}
          >
            New device version
          </Button>
        )
      }
    >
      {workspace.error ? (
        <Alert severity="error">{workspace.error}</Alert>
      ) : workspace.loading ? (
        <Loading what="the workspace" />
      ) : !workspace.deviceId ? (
        <Alert severity="info">Choose or create a device workspace first.</Alert>
      ) : (
        <VersionList
          key={workspace.deviceId}
          deviceId={workspace.deviceId}
          highlight={params.get('version')}
          canCreate={workspace.canCreate}
        />
      )}
    </Page>
  );
}
