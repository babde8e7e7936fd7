import { useEffect, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { ssmListPath } from '../../ssm';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { type Project } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { productName } from '../../../lib/product';
import { useProject } from '../api';
import { useProjectLocation } from '../hooks/useProjectLocation';
import { stageGroups } from '../labels';
import { projectViewPath } from '../paths';
import { EditProjectDialog } from './EditProjectDialog';
import { ProjectStatusChip } from './ProjectStatusChip';
import { ProjectStatusMenu } from './ProjectStatusMenu';

const tabs = [
  { tab: 'stats', label: 'Stats' },
  { tab: 'rooms', label: 'Rooms' },
  { tab: 'comments', label: 'Comments' },
] as const;

function Header({ deviceId, project }: { deviceId: string; project: Project }) {
  const stage = stageGroups.find((group) => group.stage === project.developmentStage)?.label;
  const { question } = project;
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    document.title = `${project.name} · ${productName}`;
  }, [project.name]);
  return (
    <Stack direction="row" spacing={2} sx={{ py: 3, justifyContent: 'space-between', alignItems: 'flex-start' }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="overline" color="primary" component="p">
          Project{stage ? ` · ${stage}` : ''}
        </Typography>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h1" sx={{ wordBreak: 'break-word' }}>
            {project.name}
          </Typography>
          <ProjectStatusChip status={project.status} size="medium" />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography color="text.secondary">
            {question ? `Question of interest: ${question.question}` : 'No question of interest yet.'}
          </Typography>
          {question?.riskLevel && (
            <Chip size="small" variant="outlined" label={`Model risk level ${question.riskLevel} of 5 (V&V 40)`} />
          )}
        </Stack>
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
        {/* The project's statistical shape models (issue 18): their list, pages and creation. */}
        <Button variant="outlined" component={RouterLink} to={ssmListPath(deviceId, project.id)}>
          Shape models
        </Button>
        {project.canManage && (
          <>
            <Button variant="outlined" startIcon={<EditOutlinedIcon />} onClick={() => setEditing(true)}>
              Edit project
            </Button>
            <EditProjectDialog deviceId={deviceId} project={project} open={editing} onClose={() => setEditing(false)} />
          </>
        )}
        <ProjectStatusMenu deviceId={deviceId} project={project} />
      </Stack>
    </Stack>
  );
}

/**
 * The project view (spec §2): the project's header and the three tabs Stats, Rooms, Comments, each its own route
 * that keeps `?project=`. A project the caller may not see shows the server's message instead of the tabs.
 */
export function ProjectViewLayout() {
  const { pathname } = useLocation();
  const { deviceId, projectId, namedDeviceId, loading, error } = useProjectLocation();
  const project = useProject(deviceId, projectId);
  const current = tabs.find((entry) => pathname.startsWith(`/projects/view/${entry.tab}`))?.tab ?? false;

  let content;
  if (error) content = <Alert severity="error">Your workspace could not be loaded. {error}</Alert>;
  else if (!projectId)
    content = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/projects/overview" color="inherit" size="small">
            Projects overview
          </Button>
        }
      >
        No project is chosen. Open one from the projects overview.
      </Alert>
    );
  else if (loading) content = <Loading what="your workspace" />;
  else if (!deviceId) content = <Alert severity="info">Projects belong to a device workspace. Set one up first.</Alert>;
  else if (project.error && !project.data)
    content =
      project.error.status === 403 || project.error.status === 404 ? (
        <Alert
          severity="warning"
          action={
            <Button component={RouterLink} to="/projects/overview" color="inherit" size="small">
              Projects overview
            </Button>
          }
        >
          {project.error.message}
        </Alert>
      ) : (
        <LoadFailure what="The project" error={project.error} retry={() => void project.mutate()} />
      );
  else if (!project.data) content = <Loading what="the project" />;

  if (content || !project.data || !deviceId || !projectId)
    return (
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        {content}
      </Container>
    );

  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container maxWidth="lg">
          <Header deviceId={deviceId} project={project.data} />
          <Tabs value={current} aria-label="Project view" sx={{ ml: -2 }}>
            {tabs.map((entry) => (
              <Tab
                key={entry.tab}
                value={entry.tab}
                label={entry.label}
                component={RouterLink}
                to={projectViewPath(projectId, entry.tab, namedDeviceId)}
                sx={{ minWidth: 0, px: 2 }}
              />
            ))}
          </Tabs>
        </Container>
      </Box>
      <Outlet />
    </>
  );
}
