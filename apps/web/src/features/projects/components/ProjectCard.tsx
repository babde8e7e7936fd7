import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Project } from '@insilico/contracts';
import { formatDate } from '../../../lib/formatDate';
import { projectViewPath } from '../paths';
import { ProjectStatusChip } from './ProjectStatusChip';
import { ProjectStatusMenu } from './ProjectStatusMenu';
import { TeamAvatars } from './TeamAvatars';

/** A list of names, or a dash when there are none. */
function Names({ label, names }: { label: string; names: string[] }) {
  return (
    <Typography variant="body2" color="text.secondary" noWrap title={names.join(', ')}>
      <Box component="span" sx={{ fontWeight: 700, color: 'text.primary' }}>
        {label}:
      </Box>{' '}
      {names.length > 0 ? names.join(', ') : '—'}
    </Typography>
  );
}

/** One project of the overview (spec §2): name, question, cohorts, device versions, team, date; its menu. */
export const ProjectCard = memo(function ProjectCard({ deviceId, project }: { deviceId: string; project: Project }) {
  return (
    <Card variant="outlined" sx={{ borderRadius: 2, height: '100%', position: 'relative' }}>
      <CardActionArea
        component={RouterLink}
        to={projectViewPath(project.id)}
        sx={{ height: '100%', p: 2, pr: 6, display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Stack spacing={1} sx={{ flexGrow: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h4" component="h3" sx={{ fontSize: 18, fontWeight: 700 }} noWrap>
              {project.name}
            </Typography>
          </Stack>
          <Typography
            variant="body2"
            sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
          >
            {project.question?.question ?? 'No question of interest yet'}
          </Typography>
          <Names label="Cohorts" names={project.cohorts.map((cohort) => cohort.name)} />
          <Names label="Device versions" names={project.deviceVersions.map((version) => version.name)} />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 2 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <ProjectStatusChip status={project.status} />
            <Typography variant="body2" color="text.secondary">
              {formatDate(project.createdAt)}
            </Typography>
          </Stack>
          <TeamAvatars team={project.team} max={4} />
        </Stack>
      </CardActionArea>
      <Box sx={{ position: 'absolute', top: 8, right: 8 }}>
        <ProjectStatusMenu deviceId={deviceId} project={project} />
      </Box>
    </Card>
  );
});
