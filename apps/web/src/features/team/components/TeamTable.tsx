import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { memberRoles, type MemberRole, type MembershipStatus, type TeamMember } from '@insilico/contracts';
import { initialsOf } from '../../../lib/initials';
import { labelOf } from '../../../lib/labels';
import { actionsFor, displayName, rowKey, statusLabels } from '../teamRows';

export type RowRequest =
  | { kind: 'changeRole'; member: TeamMember; role: MemberRole }
  | { kind: 'accept'; member: TeamMember }
  | { kind: 'decline' | 'remove' | 'revoke'; member: TeamMember };

interface TeamTableProps {
  rows: readonly TeamMember[];
  canManage: boolean;
  ownUserId: string;
  /** The row whose action runs now: its controls are disabled. */
  busyKey: string | null;
  onRequest: (request: RowRequest) => void;
}

const statusColors: Record<MembershipStatus, 'default' | 'warning' | 'success'> = {
  invited: 'default',
  pending_approval: 'warning',
  ok: 'success',
};

/** The team as a table: avatar, name, e-mail, role, status and — for admins — the row's actions. */
export function TeamTable({ rows, canManage, ownUserId, busyKey, onRequest }: TeamTableProps) {
  return (
    <Table aria-label="Team" sx={{ minWidth: 720 }}>
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell>E-mail</TableCell>
          <TableCell>Role</TableCell>
          <TableCell>Status</TableCell>
          {canManage && <TableCell align="right">Actions</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((member) => {
          const key = rowKey(member);
          const name = displayName(member);
          const actions = actionsFor(member, canManage, ownUserId);
          const busy = busyKey === key;
          const self = member.userId === ownUserId;
          return (
            <TableRow key={key} hover>
              <TableCell>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                  <Avatar
                    aria-hidden="true"
                    src={member.pictureUrl ?? undefined}
                    alt=""
                    sx={{ width: 32, height: 32, fontSize: 13, fontWeight: 800, bgcolor: 'primary.main' }}
                  >
                    {member.fullName ? initialsOf(member.fullName) : member.info.charAt(0).toUpperCase()}
                  </Avatar>
                  <Typography variant="body2" sx={{ fontWeight: 700 }}>
                    {name}
                    {self && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {' '}
                        (you)
                      </Typography>
                    )}
                  </Typography>
                </Stack>
              </TableCell>
              <TableCell>{member.info}</TableCell>
              <TableCell>
                {actions.includes('changeRole') ? (
                  <TextField
                    select
                    size="small"
                    value={member.role}
                    disabled={busy}
                    onChange={(event) =>
                      onRequest({ kind: 'changeRole', member, role: event.target.value as MemberRole })
                    }
                    slotProps={{ htmlInput: { 'aria-label': `Role of ${name}` } }}
                    sx={{ minWidth: 120 }}
                  >
                    {memberRoles.map((role) => (
                      <MenuItem key={role} value={role}>
                        {labelOf(role)}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : (
                  labelOf(member.role)
                )}
              </TableCell>
              <TableCell>
                <Chip size="small" label={statusLabels[member.status]} color={statusColors[member.status]} />
              </TableCell>
              {canManage && (
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    {actions.includes('accept') && (
                      <Button
                        size="small"
                        variant="contained"
                        disabled={busy}
                        onClick={() => onRequest({ kind: 'accept', member })}
                        aria-label={`Accept ${name}`}
                      >
                        Accept
                      </Button>
                    )}
                    {actions.includes('decline') && (
                      <Button
                        size="small"
                        color="error"
                        disabled={busy}
                        onClick={() => onRequest({ kind: 'decline', member })}
                        aria-label={`Decline ${name}`}
                      >
                        Decline
                      </Button>
                    )}
                    {actions.includes('remove') && (
                      <Button
                        size="small"
                        color="error"
                        disabled={busy}
                        onClick={() => onRequest({ kind: 'remove', member })}
                        aria-label={`Remove ${name}`}
                      >
                        Remove
                      </Button>
                    )}
                    {actions.includes('revoke') && (
                      <Button
                        size="small"
                        color="error"
                        disabled={busy}
                        onClick={() => onRequest({ kind: 'revoke', member })}
                        aria-label={`Revoke the invitation of ${name}`}
                      >
                        Revoke
                      </Button>
                    )}
                  </Stack>
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
