import { useDeferredValue, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DeviceVersion } from '@insilico/contracts';
import { Loading } from '../../../components/LoadState';
import { formatDate } from '../../../lib/formatDate';
import { unusableVersionIds, useChosenDeviceVersions, useDeviceVersions } from '../api';
import { deviceVersionsPath } from '../paths';
import type { DeviceVersionChooserProps } from '../props';
import { DeleteVersionButton } from './DeleteVersionButton';
import { DeviceVersionStatusChip } from './DeviceVersionStatusChip';

const pageSize = 10;
/** Failed versions cannot join a project; uploading ones are not created yet. */
const usable = ['ready', 'processing'] as const;

function Thumbnail({ version }: { version: DeviceVersion }) {
  const preview = version.files.find((file) => file.previewUrl)?.previewUrl;
  return (
    <Box
      sx={{ width: 56, height: 56, borderRadius: 1, bgcolor: 'action.hover', flexShrink: 0, overflow: 'hidden' }}
      aria-hidden="true"
    >
      {preview && <img src={preview} alt="" width={56} height={56} loading="lazy" />}
    </Box>
  );
}

/**
 * The chosen versions that cannot join the project (failed, or deleted meanwhile): shown, never counted, with Untick
 * and — for a failed one — Delete (issue 14 item 13: they used to be hidden yet counted, and creation failed).
 */
function UnusableChosen({
  deviceId,
  ids,
  found,
  onUntick,
  disabled,
}: {
  deviceId: string;
  ids: readonly string[];
  found: readonly DeviceVersion[];
  onUntick: (id: string) => void;
  disabled?: boolean;
}) {
  return (
    <Alert severity="warning" aria-label="Chosen versions that cannot join the project">
      {ids.length === 1 ? 'This chosen device version' : 'These chosen device versions'} cannot join the project and
      {ids.length === 1 ? ' is' : ' are'} left out:
      <List dense disablePadding>
        {ids.map((id) => {
          const version = found.find((item) => item.id === id);
          return (
            <ListItem key={id} disableGutters sx={{ gap: 1, flexWrap: 'wrap' }}>
              <ListItemText
                primary={version ? version.name : 'A device version that was deleted'}
                secondary={version ? 'Could not be processed. Upload it again as a new version.' : null}
              />
              <Button size="small" color="inherit" onClick={() => onUntick(id)} disabled={disabled}>
                Untick
              </Button>
              {version && <DeleteVersionButton deviceId={deviceId} version={version} onDeleted={() => onUntick(id)} />}
            </ListItem>
          );
        })}
      </List>
    </Alert>
  );
}

/** Choose ready or processing device versions of the workspace (checkbox list with search and pages). */
export function DeviceVersionChooser({
  deviceId,
  value,
  onChange,
  highlightIds = [],
  disabled,
}: DeviceVersionChooserProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const deferredSearch = useDeferredValue(search);
  const versions = useDeviceVersions(deviceId, { search: deferredSearch, status: usable, page, pageSize });
  const current = useChosenDeviceVersions(deviceId, value);
  const unusable = current.data ? unusableVersionIds(value, current.data.items) : [];
  const chosen = new Set(value);

  const toggle = (id: string) => onChange(chosen.has(id) ? value.filter((other) => other !== id) : [...value, id]);

  let body;
  if (versions.error && !versions.data)
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void versions.mutate()}>
            Retry
          </Button>
        }
      >
        The device versions could not be loaded. {versions.error.message}
      </Alert>
    );
  else if (!versions.data) body = <Loading what="the device versions" />;
  else if (versions.data.items.length === 0)
    body = (
      <Paper variant="outlined" sx={{ p: 3, borderRadius: 2 }}>
        <Typography color="text.secondary">
          {deferredSearch.trim() === ''
            ? 'This workspace has no device versions yet. Create a new one.'
            : `No device version matches "${deferredSearch.trim()}".`}
        </Typography>
      </Paper>
    );
  else
    body = (
      <Paper variant="outlined" sx={{ borderRadius: 2 }}>
        <List aria-label="Device versions to choose from" disablePadding>
          {versions.data.items.map((version) => {
            const labelId = `device-version-${version.id}`;
            return (
              <ListItem key={version.id} divider disablePadding>
                <ListItemButton onClick={() => toggle(version.id)} disabled={disabled} dense>
                  <ListItemIcon>
                    <Checkbox
                      edge="start"
                      checked={chosen.has(version.id)}
                      tabIndex={-1}
                      disableRipple
                      slotProps={{ input: { 'aria-labelledby': labelId } }}
                    />
                  </ListItemIcon>
                  <Thumbnail version={version} />
                  <ListItemText
                    id={labelId}
                    sx={{ ml: 2 }}
                    primary={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <span>{version.name}</span>
                        <DeviceVersionStatusChip status={version.status} />
                        {highlightIds.includes(version.id) && <Chip size="small" label="New" variant="outlined" />}
                      </Stack>
                    }
                    secondary={`${version.files.length} ${version.files.length === 1 ? 'file' : 'files'} · ${formatDate(version.createdAt)}${version.createdBy ? ` · ${version.createdBy.fullName}` : ''}`}
                  />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </Paper>
    );

  const pages = versions.data ? Math.max(1, Math.ceil(versions.data.total / pageSize)) : 1;
  return (
    <Stack spacing={2}>
      <TextField
        type="search"
        label="Search device versions"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPage(1);
        }}
        size="small"
        sx={{ maxWidth: 360 }}
      />
      {unusable.length > 0 && current.data && (
        <UnusableChosen
          deviceId={deviceId}
          ids={unusable}
          found={current.data.items}
          onUntick={(id) => onChange(value.filter((other) => other !== id))}
          disabled={disabled}
        />
      )}
      {body}
      {pages > 1 && (
        <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} aria-label="Pages of versions" />
      )}
      <Typography variant="body2" color="text.secondary">
        {value.length - unusable.length} chosen. Processing versions join the project once they are ready.{' '}
        <Link component={RouterLink} to={deviceVersionsPath} target="_blank" rel="noopener">
          All device versions
        </Link>
      </Typography>
    </Stack>
  );
}
