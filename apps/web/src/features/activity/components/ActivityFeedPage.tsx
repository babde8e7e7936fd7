import { useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { ActivityItem } from '@insilico/contracts';
import { FilterSelect } from '../../../components/FilterSelect';
import { Page } from '../../../components/Page';
import { formatDateTime } from '../../../lib/formatDate';
import { useSelectedDevice } from '../../devices';
import { auditExportUrl, useActivityFeed, type ActivityFilters } from '../api';

const filterNames = ['projectId', 'actorId', 'kind', 'from', 'to'] as const;

/** How a kind (the object type of the events) reads in the filter. */
function kindLabel(kind: string): string {
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function ActivityRow({ item }: { item: ActivityItem }) {
  return (
    <ListItem divider alignItems="flex-start" sx={{ display: 'block', py: 1.5 }} data-testid="activity-item">
      <Typography variant="body1">
        {item.link ? (
          <Link component={RouterLink} to={item.link}>
            {item.summary}
          </Link>
        ) : (
          item.summary
        )}
      </Typography>
      {item.reason && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          Reason: {item.reason}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        <time dateTime={item.occurredAt}>{formatDateTime(item.occurredAt)}</time> · {kindLabel(item.kind)}
      </Typography>
    </ListItem>
  );
}

/**
 * /activity-feed (issue 20): what happened in the selected workspace, from the audit trail's events; admins and
 * members see the workspace's, a guest those of their projects. Filters live in the address; new events arrive live.
 */
export function ActivityFeedPage() {
  const [params, setParams] = useSearchParams();
  const device = useSelectedDevice();
  const deviceId = device.data?.device?.deviceId ?? null;
  const filters = useMemo<ActivityFilters>(
    () => ({
      projectId: params.get('projectId') ?? '',
      actorId: params.get('actorId') ?? '',
      kind: params.get('kind') ?? '',
      from: params.get('from') ?? '',
      to: params.get('to') ?? '',
    }),
    [params],
  );
  const feed = useActivityFeed(deviceId, filters);
  const filtered = filterNames.some((name) => filters[name] !== '');

  const setFilter = (name: (typeof filterNames)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  const facets = feed.facets;
  return (
    <Page title="Activity feed" section="Workspace" description="What happened across your device workspace.">
      <Paper variant="outlined" sx={{ p: 2, mb: 3, borderRadius: 3 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} role="group" aria-label="Filter the activity">
          <FilterSelect
            label="Project"
            value={filters.projectId}
            allLabel="All projects"
            options={(facets?.projects ?? []).map((project) => ({ value: project.id, label: project.name }))}
            onChange={(value) => setFilter('projectId', value)}
          />
          <FilterSelect
            label="Person"
            value={filters.actorId}
            allLabel="Everyone"
            options={(facets?.people ?? []).map((person) => ({ value: person.id, label: person.name }))}
            onChange={(value) => setFilter('actorId', value)}
          />
          <FilterSelect
            label="Kind"
            value={filters.kind}
            allLabel="All kinds"
            options={(facets?.kinds ?? []).map((kind) => ({ value: kind, label: kindLabel(kind) }))}
            onChange={(value) => setFilter('kind', value)}
            minWidth={160}
          />
          <TextField
            label="From"
            type="date"
            value={filters.from}
            onChange={(event) => setFilter('from', event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="To"
            type="date"
            value={filters.to}
            onChange={(event) => setFilter('to', event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {filtered && (
            <Button onClick={() => setParams(new URLSearchParams(), { replace: true })}>Clear filters</Button>
          )}
        </Stack>
        {device.data?.device?.isAdmin && deviceId && (
          // Admins hand the whole trail to an inspector: both exports with their SHA-256 in one ZIP (issue 20).
          <Button component="a" href={auditExportUrl(deviceId)} download startIcon={<DownloadIcon />} sx={{ mt: 2 }}>
            Export the audit trail for inspectors (ZIP)
          </Button>
        )}
      </Paper>
      {device.data && !device.data.device ? (
        <Alert severity="info">Choose a device workspace in the top bar to see its activity.</Alert>
      ) : feed.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={feed.retry}>
              Try again
            </Button>
          }
        >
          {feed.error.message}
        </Alert>
      ) : feed.isLoading || !deviceId ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={20} />
          <Typography>Loading the activity…</Typography>
        </Stack>
      ) : feed.items.length === 0 ? (
        <Alert severity="info">
          {filtered ? 'No activity matches these filters.' : 'No activity yet. Changes your team makes appear here.'}
        </Alert>
      ) : (
        <>
          <List aria-label="Activity" disablePadding>
            {feed.items.map((item) => (
              <ActivityRow key={item.id} item={item} />
            ))}
          </List>
          {feed.hasMore && (
            <Button sx={{ mt: 2 }} onClick={feed.loadMore} disabled={feed.isLoadingMore}>
              {feed.isLoadingMore ? 'Loading…' : 'Show older activity'}
            </Button>
          )}
        </>
      )}
    </Page>
  );
}
