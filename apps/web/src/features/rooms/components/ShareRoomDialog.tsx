import { useId, useState } from 'react';
import type { Room } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { LoadFailure, Loading } from '../../../components/LoadState';
import type { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import { shareRoom, useRoomShares } from '../api';

interface ShareRoomDialogProps {
  deviceId: string;
  projectId: string;
  /** The room to share; null: closed. */
  room: Room | null;
  onClose: () => void;
  onShared: () => void;
}

/**
 * Shares a room with members of the project team; each one chosen is notified with a link to the room.
 * Mounted per room (keyed by its id), so the choice starts empty.
 */
export function ShareRoomDialog({ deviceId, projectId, room, onClose, onShared }: ShareRoomDialogProps) {
  const id = useId();
  const shares = useRoomShares(deviceId, projectId, room?.id ?? null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = (userId: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(userId)) next.delete(userId);
      else next.add(userId);
      return next;
    });

  const submit = async () => {
    if (!room || chosen.size === 0) return;
    setBusy(true);
    setError(null);
    try {
      await shares.mutate(await shareRoom(deviceId, projectId, room.id, [...chosen]), { revalidate: false });
      onShared();
    } catch (caught) {
      setError((caught as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  const items = shares.data?.items ?? [];
  return (
    <Dialog
      open={room !== null}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby={`${id}-t`}
    >
      <DialogTitle id={`${id}-t`}>Share {room?.name}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          Members of the project team you choose are notified with a link to this room.
        </DialogContentText>
        {shares.error ? (
          <LoadFailure what="The project team" error={shares.error} retry={() => void shares.mutate()} />
        ) : !shares.data ? (
          <Loading what="the project team" />
        ) : items.length === 0 ? (
          <Alert severity="info">Nobody else is on the project team yet.</Alert>
        ) : (
          <List dense aria-label="Project team">
            {items.map((person) => (
              <ListItem key={person.userId} disablePadding>
                <ListItemButton onClick={() => toggle(person.userId)} disabled={person.shared || busy}>
                  <ListItemIcon>
                    <Checkbox
                      edge="start"
                      checked={person.shared || chosen.has(person.userId)}
                      tabIndex={-1}
                      disableRipple
                      slotProps={{ input: { 'aria-label': person.name || person.email } }}
                    />
                  </ListItemIcon>
                  <ListItemText
                    primary={person.name || person.email}
                    secondary={
                      person.shared && person.sharedAt ? `Shared on ${formatDate(person.sharedAt)}` : person.email
                    }
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy || chosen.size === 0}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          Share
        </Button>
      </DialogActions>
    </Dialog>
  );
}
