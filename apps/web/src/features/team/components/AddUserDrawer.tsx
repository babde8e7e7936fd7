import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { defaultMemberRole, memberRoles, teamInviteeSchema, type MemberRole } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { inviteColleague } from '../api';
import { labelOf } from '../../../lib/labels';
import { roleDescriptions } from '../teamRows';

interface AddUserDrawerProps {
  open: boolean;
  deviceId: string;
  deviceName: string;
  onClose: () => void;
  /** After the server accepted the invitation (the mail is in the outbox). */
  onInvited: (email: string) => void;
}

/** The add-user drawer (spec §2 side panels): invite a colleague by e-mail with a role. */
export function AddUserDrawer({ open, deviceId, deviceName, onClose, onInvited }: AddUserDrawerProps) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>(defaultMemberRole);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  function reset() {
    setEmail('');
    setRole(defaultMemberRole);
    setEmailError(null);
    setError(null);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address) return setEmailError('Enter your colleague’s e-mail address.');
    if (!teamInviteeSchema.safeParse({ email: address }).success) return setEmailError('Enter a valid e-mail address.');
    setSending(true);
    setError(null);
    try {
      await inviteColleague(deviceId, address, role);
      reset();
      onInvited(address);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The invitation could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={sending ? undefined : onClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } }, 'aria-labelledby': 'add-user-title' } }}
    >
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate sx={{ p: 3 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography id="add-user-title" variant="h3" component="h2">
            Add user
          </Typography>
          <IconButton aria-label="Close" onClick={onClose} disabled={sending}>
            <CloseIcon />
          </IconButton>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          Invite a colleague to “{deviceName}”. They get an e-mail with a link that works once for 7 days; after they
          have signed up or in, you accept them here.
        </Typography>
        <Stack spacing={2.5}>
          <TextField
            label="E-mail"
            type="email"
            required
            autoFocus
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(null);
            }}
            error={emailError !== null}
            helperText={emailError}
            slotProps={{ htmlInput: { maxLength: 254 } }}
          />
          <TextField
            select
            label="Role"
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            helperText={roleDescriptions[role]}
          >
            {memberRoles.map((option) => (
              <MenuItem key={option} value={option}>
                {labelOf(option)}
              </MenuItem>
            ))}
          </TextField>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={onClose} disabled={sending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={sending}
              startIcon={sending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
            >
              {sending ? 'Sending…' : 'Send invitation'}
            </Button>
          </Stack>
        </Stack>
      </Box>
    </Drawer>
  );
}
