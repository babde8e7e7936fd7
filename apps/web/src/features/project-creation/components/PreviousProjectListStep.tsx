import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { formatDate } from '../../../lib/formatDate';
import { labelOf } from '../../../lib/labels';
import { usePreviousProjects } from '../api';
import { useWizard } from '../wizardContext';
import { copyFromProject, startFromScratch } from '../wizardState';
import { StepActions } from './StepActions';
import { StepHeading } from './StepHeading';

/** `/projects/create/previous-project-list`: start from a previous project of the workspace. */
export function PreviousProjectListStep() {
  const { deviceId, userId, draft, change, go, saving } = useWizard();
  const projects = usePreviousProjects(deviceId);
  const chosen = projects.data?.items.find((project) => project.id === draft.basedOnProjectId) ?? null;

  let body;
  if (projects.error && !projects.data)
    body = <LoadFailure what="The projects" error={projects.error} retry={() => void projects.mutate()} />;
  else if (!projects.data) body = <Loading what="the projects" />;
  else if (projects.data.items.length === 0)
    body = (
      <Alert
        severity="info"
        action={
          <Button color="inherit" size="small" onClick={() => void go('patient-cohort-list', startFromScratch)}>
            Start from scratch
          </Button>
        }
      >
        This device workspace has no projects yet.
      </Alert>
    );
  else
    body = (
      <List aria-label="Previous projects" sx={{ maxWidth: 880 }}>
        {projects.data.items.map((project) => {
          const selected = project.id === draft.basedOnProjectId;
          return (
            <ListItemButton
              key={project.id}
              selected={selected}
              onClick={() => change((current) => copyFromProject(current, project, userId))}
              sx={{ borderRadius: 2, mb: 1, border: 1, borderColor: selected ? 'primary.main' : 'divider' }}
            >
              <ListItemIcon>
                <Radio
                  edge="start"
                  checked={selected}
                  tabIndex={-1}
                  slotProps={{ input: { 'aria-label': project.name } }}
                />
              </ListItemIcon>
              <ListItemText
                primary={project.name}
                secondary={[
                  project.question?.question ?? 'No question of interest',
                  `${project.cohorts.length} cohort${project.cohorts.length === 1 ? '' : 's'}`,
                  `${project.deviceVersions.length} device version${project.deviceVersions.length === 1 ? '' : 's'}`,
                  `${project.team.length} in the team`,
                  formatDate(project.createdAt),
                ].join(' · ')}
              />
              <Stack direction="row" spacing={1}>
                <Chip size="small" label={labelOf(project.developmentStage)} />
                <Chip size="small" variant="outlined" label={labelOf(project.status)} />
              </Stack>
            </ListItemButton>
          );
        })}
      </List>
    );

  return (
    <div>
      <StepHeading title="Start from a previous project">
        Its question of interest, patient cohorts, device versions and team are copied into this project. You can change
        each of them in the next steps.
      </StepHeading>
      {body}
      <StepActions
        onBack={() => void go('title')}
        onNext={() => void go('patient-cohort-list')}
        nextDisabled={!chosen}
        busy={saving}
      />
    </div>
  );
}
