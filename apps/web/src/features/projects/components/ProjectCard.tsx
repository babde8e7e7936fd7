import { memo } from 'react';
import { Link as RouterLink } from 'react-router';
import { styled } from '@mui/material/styles';
import type { Project } from '@insilico/contracts';
import { formatDate } from '../../../lib/formatDate';
import { statusLabels } from '../labels';
import { projectViewPath } from '../paths';
import { ProjectStatusMenu } from './ProjectStatusMenu';
import { TeamAvatars } from './TeamAvatars';

/**
 * The card's look in one style rule, its parts plain elements with class names: the overview draws up to 24 cards
 * per stage group at once, and a card of MUI components (Card, CardActionArea, Stack, Typography, Chip, Avatar)
 * cost about 9 ms to draw, most of the page's time to interactive (bench/projects-overview; decision
 * docs/decisions/projects-overview-speed.md). It looks as the MUI version did.
 */
const CardRoot = styled('article')(({ theme }) => ({
  position: 'relative',
  height: '100%',
  // Cards below the fold are laid out and painted only when scrolled near (the overview draws up to 24 per group).
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 188px',
  borderRadius: 16,
  border: `1px solid ${theme.palette.divider}`,
  backgroundColor: theme.palette.background.paper,
  '& .card-link': {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    boxSizing: 'border-box',
    padding: theme.spacing(2, 6, 2, 2),
    borderRadius: 'inherit',
    color: 'inherit',
    textDecoration: 'none',
    '&:hover': { backgroundColor: theme.palette.action.hover },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
  },
  '& .card-body': { display: 'flex', flexDirection: 'column', gap: theme.spacing(1), flexGrow: 1 },
  '& .card-title': {
    ...theme.typography.h4,
    fontSize: 18,
    margin: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .card-question': {
    ...theme.typography.body2,
    margin: 0,
    display: '-webkit-box',
    WebkitLineClamp: 2,
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  },
  '& .card-names': {
    ...theme.typography.body2,
    margin: 0,
    color: theme.palette.text.secondary,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .card-names strong': { fontWeight: 700, color: theme.palette.text.primary },
  '& .card-footer': {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: theme.spacing(1),
    marginTop: theme.spacing(2),
  },
  '& .card-status-date': { display: 'flex', alignItems: 'center', gap: theme.spacing(1) },
  '& .card-date': { ...theme.typography.body2, color: theme.palette.text.secondary },
  // The small status chip of ProjectStatusChip: filled when active, outlined otherwise.
  '& .card-status': {
    display: 'inline-flex',
    alignItems: 'center',
    height: 24,
    padding: '0 8px',
    borderRadius: 16,
    fontSize: theme.typography.pxToRem(13),
    fontWeight: 700,
    whiteSpace: 'nowrap',
    border: '1px solid transparent',
  },
  '& .card-status-active': {
    backgroundColor: theme.palette.success.main,
    color: theme.palette.success.contrastText,
  },
  '& .card-status-completed': { borderColor: theme.palette.grey[400], color: theme.palette.text.primary },
  '& .card-status-abandoned': {
    borderColor: theme.palette.warning.main,
    color: theme.palette.warning.main,
  },
  '& .card-menu': { position: 'absolute', top: 8, right: 8 },
}));

/** A list of names, or a dash when there are none. */
function Names({ label, names }: { label: string; names: string[] }) {
  return (
    <p className="card-names" title={names.join(', ')}>
      <strong>{label}:</strong> {names.length > 0 ? names.join(', ') : '—'}
    </p>
  );
}

/** One project of the overview (spec §2): name, question, cohorts, device versions, team, date; its menu. */
export const ProjectCard = memo(function ProjectCard({ deviceId, project }: { deviceId: string; project: Project }) {
  return (
    <CardRoot>
      <RouterLink className="card-link" to={projectViewPath(project.id)}>
        <div className="card-body">
          <h3 className="card-title">{project.name}</h3>
          <p className="card-question">{project.question?.question ?? 'No question of interest yet'}</p>
          <Names label="Cohorts" names={project.cohorts.map((cohort) => cohort.name)} />
          <Names label="Device versions" names={project.deviceVersions.map((version) => version.name)} />
        </div>
        <div className="card-footer">
          <span className="card-status-date">
            <span className={`card-status card-status-${project.status}`}>{statusLabels[project.status]}</span>
            <span className="card-date">{formatDate(project.createdAt)}</span>
          </span>
          <TeamAvatars team={project.team} max={4} />
        </div>
      </RouterLink>
      <div className="card-menu">
        <ProjectStatusMenu deviceId={deviceId} project={project} />
      </div>
    </CardRoot>
  );
});
