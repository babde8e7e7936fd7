import { useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import {
  projectOverviewPageSize,
  projectSearchMaxLength,
  projectStatuses,
  type DevelopmentStage,
  type Project,
  type ProjectOverview,
} from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { useSelectedDevice } from '../../devices';
import { useEarlyProjectOverview, useProjectOverview, useProjects, type ProjectListFilter } from '../api';
import { stageGroups, statusLabels } from '../labels';
import { createProjectPath } from '../paths';
import { ProjectCard } from './ProjectCard';

/** Cards shown per stage group before "Show more": a thousand cards at once would make the page slow to use. */
const groupPageSize = projectOverviewPageSize;
const searchDelayMs = 300;

type StatusFilter = ProjectListFilter['status'];
const filters: readonly StatusFilter[] = [...projectStatuses, 'all'];
const isFilter = (value: string | null): value is StatusFilter => filters.some((filter) => filter === value);

/** The status filter lives in the address (`?status=`), so a reload or a shared link keeps it; active by default. */
function useStatusFilter(): [StatusFilter, (next: StatusFilter) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status: StatusFilter = isFilter(raw) ? raw : 'active';
  const set = (next: StatusFilter) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'active') copy.delete('status');
        else copy.set('status', next);
        return copy;
      },
      { replace: true },
    );
  return [status, set];
}

/** The search text as typed, and the one sent (after a short pause in typing). */
function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** A later page of a stage group's cards ("Show more"; the first page comes with the overview's answer). */
function StagePage({
  deviceId,
  filter,
  page,
}: {
  deviceId: string;
  filter: ProjectListFilter & { stage: DevelopmentStage };
  page: number;
}) {
  const projects = useProjects(deviceId, { ...filter, limit: groupPageSize, offset: page * groupPageSize });
  if (projects.error && !projects.data)
    return (
      <Box sx={{ gridColumn: '1 / -1' }}>
        <LoadFailure what="The projects" error={projects.error} retry={() => void projects.mutate()} />
      </Box>
    );
  if (!projects.data)
    return (
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Loading what="the projects" />
      </Box>
    );
  return <Cards deviceId={deviceId} projects={projects.data.items} />;
}

function Cards({ deviceId, projects }: { deviceId: string; projects: readonly Project[] }) {
  return projects.map((project) => <ProjectCard key={project.id} deviceId={deviceId} project={project} />);
}

function StageGroup({
  deviceId,
  label,
  group,
  filter,
}: {
  deviceId: string;
  label: string;
  group: ProjectOverview['groups'][number];
  filter: ProjectListFilter & { stage: DevelopmentStage };
}) {
  const [pages, setPages] = useState(1);
  const count = group.total;
  const shown = Math.min(count, pages * groupPageSize);
  const headingId = `stage-${label.toLowerCase()}`;
  const { status } = filter;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography id={headingId} variant="h3" component="h2" sx={{ mb: 1.5, fontSize: 20 }}>
        {label}{' '}
        <Typography component="span" color="text.secondary" sx={{ fontSize: 16 }}>
          ({count})
        </Typography>
      </Typography>
      {count === 0 ? (
        <Typography color="text.secondary" sx={{ fontSize: 14 }}>
          No {status === 'all' ? '' : `${statusLabels[status].toLowerCase()} `}projects in this stage.
        </Typography>
      ) : (
        <>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
            }}
          >
            <Cards deviceId={deviceId} projects={group.items} />
            {/* Only pages that hold cards ("Show more" adds two at a time). */}
            {Array.from({ length: Math.min(pages, Math.ceil(count / groupPageSize)) - 1 }, (_, index) => (
              <StagePage key={index + 1} deviceId={deviceId} filter={filter} page={index + 1} />
            ))}
          </Box>
          {count > shown && (
            <Button sx={{ mt: 1.5 }} onClick={() => setPages((current) => current + 2)}>
              Show {Math.min(groupPageSize * 2, count - shown)} more of {count - shown}
            </Button>
          )}
        </>
      )}
    </Box>
  );
}

function ProjectGroups({ deviceId, status, search }: { deviceId: string; status: StatusFilter; search: string }) {
  // One request for the first screen: every group's count and first page.
  const overview = useProjectOverview(deviceId, { status, search });
  if (overview.error && !overview.data)
    return <LoadFailure what="The projects" error={overview.error} retry={() => void overview.mutate()} />;
  if (!overview.data) return <Loading what="the projects" />;
  if (overview.data.total === 0) {
    const { canCreate } = overview.data;
    return (
      <Paper variant="outlined" sx={{ p: 4, borderRadius: 2, textAlign: 'center' }}>
        <Typography variant="h3" component="h2" sx={{ mb: 1 }}>
          {search
            ? `No projects match “${search}”`
            : status === 'all'
              ? 'No projects yet'
              : `No ${statusLabels[status].toLowerCase()} projects`}
        </Typography>
        <Typography color="text.secondary">
          {search
            ? 'Try another name, or look at the projects of another status.'
            : canCreate
              ? 'Projects bring together virtual patient cohorts, a question of interest, device versions and a team. Start one with Create project.'
              : 'You see the projects you were added to. Ask a member of your device workspace to add you to one.'}
        </Typography>
      </Paper>
    );
  }
  const groups = overview.data.groups;
  return (
    <Box aria-busy={overview.isValidating}>
      {/* Keyed by the filter: another filter starts each group at its first page again. */}
      {stageGroups.map(({ stage, label }) => {
        const group = groups.find((candidate) => candidate.stage === stage);
        return group ? (
          <StageGroup
            key={`${stage}:${status}:${search}`}
            deviceId={deviceId}
            label={label}
            group={group}
            filter={{ status, search, stage }}
          />
        ) : null;
      })}
    </Box>
  );
}

/** `/projects/overview`: the projects of the selected workspace grouped by development stage (spec §2). */
export function ProjectsOverviewPage() {
  const selected = useSelectedDevice();
  const deviceId = selected.data?.device?.deviceId ?? null;
  const [status, setStatus] = useStatusFilter();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), searchDelayMs);
  useEarlyProjectOverview(deviceId, { status, search });
  const projects = useProjectOverview(deviceId, { status, search });

  let body;
  if (selected.error && !selected.data)
    body = <LoadFailure what="Your workspace" error={selected.error} retry={() => void selected.mutate()} />;
  else if (!selected.data) body = <Loading what="your workspace" />;
  else if (!deviceId)
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/onboarding/body-part" color="inherit" size="small">
            Set up a workspace
          </Button>
        }
      >
        Projects belong to a device workspace. Set one up first.
      </Alert>
    );
  else body = <ProjectGroups deviceId={deviceId} status={status} search={search} />;

  return (
    <Page
      section="Projects"
      title="Projects overview"
      description={
        selected.data?.device
          ? `The development projects of ${selected.data.device.deviceName}, grouped by development stage.`
          : 'Your development projects per device, grouped by development stage.'
      }
      actions={
        // Guests may not create projects and see no button (the list says who may).
        deviceId && projects.data?.canCreate ? (
          <Button
            component={RouterLink}
            to={createProjectPath}
            variant="contained"
            startIcon={<AddIcon aria-hidden="true" />}
          >
            Create project
          </Button>
        ) : undefined
      }
    >
      {deviceId && (
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ mb: 3, alignItems: { xs: 'stretch', md: 'center' } }}
        >
          <ToggleButtonGroup
            value={status}
            exclusive
            size="small"
            aria-label="Project status"
            onChange={(_event, next: StatusFilter | null) => next && setStatus(next)}
          >
            {projectStatuses.map((value) => (
              <ToggleButton key={value} value={value}>
                {statusLabels[value]}
              </ToggleButton>
            ))}
            <ToggleButton value="all">All</ToggleButton>
          </ToggleButtonGroup>
          <TextField
            size="small"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder="Search projects by name"
            sx={{ minWidth: { md: 320 } }}
            slotProps={{
              htmlInput: { 'aria-label': 'Search projects by name', maxLength: projectSearchMaxLength },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" aria-hidden="true" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Stack>
      )}
      {deviceId && projects.isValidating && projects.data && (
        <LinearProgress aria-label="Updating the projects" sx={{ mb: 1 }} />
      )}
      {body}
    </Page>
  );
}
