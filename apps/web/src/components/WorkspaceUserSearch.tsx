import { useMemo, useState } from 'react';
import useSWR from 'swr';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { pathOf, teamEndpoints, teamNoMatchMessage, teamSchema, type MemberRole, type Team } from '@insilico/contracts';
import { apiFetch } from '../lib/api';
import type { ApiError } from '../lib/apiError';
import { initialsOf } from '../lib/initials';
import { LoadFailure } from './LoadState';

/** A user of the workspace who can be put on a project (an `ok` membership). */
export interface WorkspaceUser {
  userId: string;
  fullName: string;
  email: string;
  role: MemberRole;
  pictureUrl: string | null;
}

export interface WorkspaceUserSearchProps {
  deviceId: string;
  /** Users not to offer (already chosen, already on the team). */
  excludeUserIds?: readonly string[];
  onSelect: (user: WorkspaceUser) => void;
  label?: string;
  disabled?: boolean;
}

const teamKey = (deviceId: string) => pathOf(teamEndpoints.list, { deviceId });
const fetchTeam = (url: string): Promise<Team> => apiFetch(url, { schema: teamSchema });

/** The users of a workspace that may join a project: members with status ok (not pending, not invited). */
export function useWorkspaceUsers(deviceId: string) {
  // The team page's key: one cache for the team list wherever it is shown.
  const team = useSWR<Team, ApiError>(teamKey(deviceId), fetchTeam);
  const users = useMemo<WorkspaceUser[]>(
    () =>
      (team.data?.items ?? []).flatMap((row) =>
        row.status === 'ok' && row.userId
          ? [
              {
                userId: row.userId,
                fullName: row.fullName ?? row.info,
                email: row.info,
                role: row.role,
                pictureUrl: row.pictureUrl,
              },
            ]
          : [],
      ),
    [team.data],
  );
  return { users, error: team.error, isLoading: team.isLoading, retry: () => void team.mutate() };
}

/** Whether a user matches what was typed: any word of the query in the name or the e-mail. */
export function matchesUser(user: WorkspaceUser, query: string): boolean {
  const haystack = `${user.fullName} ${user.email}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The searchable select of spec §2 widgets over the workspace team (spec §5 "Team search": only users already in
 * the device workspace can be added). Searching is client side; when nothing matches it says the spec's message.
 * Choosing a user hands it to `onSelect` and clears the field for the next one.
 */
export function WorkspaceUserSearch({
  deviceId,
  excludeUserIds = [],
  onSelect,
  label = 'Add a team member',
  disabled,
}: WorkspaceUserSearchProps) {
  const { users, error, isLoading, retry } = useWorkspaceUsers(deviceId);
  const [input, setInput] = useState('');
  const options = useMemo(() => users.filter((user) => !excludeUserIds.includes(user.userId)), [users, excludeUserIds]);

  if (error) return <LoadFailure what="The device team" error={error} retry={retry} />;

  return (
    <Autocomplete<WorkspaceUser>
      options={options}
      value={null}
      inputValue={input}
      onInputChange={(_event, value, reason) => setInput(reason === 'reset' ? '' : value)}
      onChange={(_event, user) => {
        if (user) onSelect(user);
        setInput('');
      }}
      filterOptions={(list, state) => list.filter((user) => matchesUser(user, state.inputValue))}
      getOptionLabel={(user) => user.fullName}
      isOptionEqualToValue={(a, b) => a.userId === b.userId}
      loading={isLoading}
      loadingText="Loading the device team…"
      noOptionsText={teamNoMatchMessage}
      disabled={disabled}
      blurOnSelect={false}
      renderOption={({ key, ...props }, user) => (
        <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <Avatar src={user.pictureUrl ?? undefined} sx={{ width: 28, height: 28, fontSize: 12 }} alt="">
            {initialsOf(user.fullName)}
          </Avatar>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2">{user.fullName}</Typography>
            <Typography variant="caption" color="text.secondary">
              {user.email} · {user.role}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder="Search by name or e-mail" autoComplete="off" />
      )}
    />
  );
}
