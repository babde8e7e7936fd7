import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Tooltip from '@mui/material/Tooltip';
import type { ProjectPerson } from '@insilico/contracts';

/** The team as overlapping avatars (picture or initials), each named by a tooltip and for screen readers. */
export function TeamAvatars({ team, max = 5 }: { team: readonly ProjectPerson[]; max?: number }) {
  if (team.length === 0) return null;
  return (
    <AvatarGroup
      max={max}
      aria-label={`Team: ${team.map((person) => person.name).join(', ')}`}
      sx={{ justifyContent: 'flex-end', '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 12 } }}
    >
      {team.map((person) => (
        <Tooltip key={person.id} title={person.name}>
          <Avatar alt={person.name} src={person.pictureUrl ?? undefined} slotProps={{ img: { loading: 'lazy' } }}>
            {person.initials}
          </Avatar>
        </Tooltip>
      ))}
    </AvatarGroup>
  );
}
