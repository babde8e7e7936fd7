import { useState } from 'react';
import type { Room } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import DialogContentText from '@mui/material/DialogContentText';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { FormDialog } from '../../../components/FormDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
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
  const shares = useRoomShares(deviceId, projectId, room?.id ?? null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());

  const toggle = (userId: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(userId)) next.delete(userId);
      else next.add(userId);
      return next;
    });

  const send = async () => {
    if (!room) return;
    await shares.mutate(await shareRoom(deviceId, projectId, room.id, [...chosen]), { revalidate: false });
    onShared();
  };

  const items = shares.data?.items ?? [];
  return (
    <FormDialog
      open={room !== null}
      title={`Share ${room?.name ?? ''}`}
      submitLabel="Share"
      canSubmit={chosen.size > 0}
      send={send}
      failure="The room could not be shared. Try again."
      onClose={onClose}
    >
      {(busy) => (
        <>
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
        </>
      )}
    </FormDialog>
  );
}
