import { styled } from '@mui/material/styles';
import type { ProjectPerson } from '@insilico/contracts';

// Plain elements under one style rule, like MUI's AvatarGroup of 28 px avatars: the overview draws dozens of cards,
// and an Avatar (plus a Tooltip) per person cost more than the rest of a card (bench/projects-overview).
const Group = styled('span')(({ theme }) => ({
  display: 'inline-flex',
  flexShrink: 0,
  '& .avatar': {
    width: 28,
    height: 28,
    marginLeft: -8,
    boxSizing: 'content-box',
    border: `2px solid ${theme.palette.background.paper}`,
    borderRadius: '50%',
    overflow: 'hidden',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 12,
    lineHeight: 1,
    userSelect: 'none',
    color: theme.palette.background.default,
    backgroundColor: theme.palette.grey[400],
  },
  '& .avatar:first-of-type': { marginLeft: 0 },
  '& .avatar img': { width: '100%', height: '100%', objectFit: 'cover' },
}));

/**
 * The team as overlapping avatars (picture or initials), at most `max` of them with "+N" for the rest; each named on
 * hover (the browser's tooltip) and, as a group, for screen readers.
 */
export function TeamAvatars({ team, max = 5 }: { team: readonly ProjectPerson[]; max?: number }) {
  if (team.length === 0) return null;
  const shown = team.length > max ? team.slice(0, max - 1) : team;
  const rest = team.slice(shown.length);
  return (
    <Group role="group" aria-label={`Team: ${team.map((person) => person.name).join(', ')}`}>
      {shown.map((person) => (
        <span key={person.id} className="avatar" title={person.name} aria-hidden="true">
          {person.pictureUrl ? <img src={person.pictureUrl} alt="" loading="lazy" /> : person.initials}
        </span>
      ))}
      {rest.length > 0 && (
        <span className="avatar" title={rest.map((person) => person.name).join(', ')} aria-hidden="true">
          +{rest.length}
        </span>
      )}
    </Group>
  );
}
