import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import type { Notification } from '@insilico/contracts';
import { useNotifications, type NotificationsState } from '../hooks/useNotifications';
import { NotificationItem } from './NotificationItem';
import { useNotificationStream } from '../hooks/useNotificationStream';

/** Only same-origin paths are followed; anything else stays unlinked. */
function isInternalPath(link: string | null): link is string {
  return link !== null && link.startsWith('/') && !link.startsWith('//') && !link.startsWith('/\\');
}

function seenSince(item: Notification, openedAt: number | null): boolean {
  if (item.seenAt === null) return true;
  return openedAt !== null && Date.parse(item.seenAt) >= openedAt;
}

/** The bell in the top bar: an unseen dot, and a panel listing notifications that marks them seen when opened. */
export function NotificationBell() {
  const notifications = useNotifications();
  const { items, hasUnseen, markSeen, receive, setHasUnseen } = notifications;
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const requested = useRef({ ids: new Set<string>(), all: false });
  const open = anchor !== null;
  const panelId = useId();
  const headingId = useId();

  useNotificationStream({ onNotification: receive, onUnseen: setHasUnseen });

  // While the panel is open, everything it shows counts as seen, including notifications that
  // arrive meanwhile. Each id is sent once per opening, so a failing call does not loop.
  useEffect(() => {
    if (!open) return;
    const ids = items
      .filter((item) => item.seenAt === null && !requested.current.ids.has(item.id))
      .map((item) => item.id);
    if (ids.length > 0) {
      for (const id of ids) requested.current.ids.add(id);
      markSeen({ ids: ids.slice(0, 500) }).catch(() => undefined);
    } else if (hasUnseen && !requested.current.all && items.every((item) => item.seenAt !== null)) {
      // The unseen ones are older than the loaded pages: opening the panel means "I have looked".
      requested.current.all = true;
      markSeen({ all: true }).catch(() => undefined);
    }
  }, [open, items, hasUnseen, markSeen]);

  const handleOpen = (event: MouseEvent<HTMLElement>) => {
    requested.current = { ids: new Set(), all: false };
    setOpenedAt(Date.now());
    setAnchor(event.currentTarget);
  };
  const handleClose = () => setAnchor(null);

  const openLink = (link: string) => {
    handleClose();
    void navigate(link);
  };

  const label = hasUnseen ? 'Notifications, unseen notifications' : 'Notifications';

  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={handleOpen}
        >
          <Badge variant="dot" color="error" invisible={!hasUnseen} overlap="circular">
            <NotificationsOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={panelId}
        open={open}
        anchorEl={anchor}
        onClose={handleClose}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': headingId,
            variant: 'outlined',
            sx: {
              width: { xs: 'calc(100vw - 32px)', sm: 400 },
              maxHeight: 520,
              display: 'flex',
              flexDirection: 'column',
              mt: 1,
              borderRadius: 3,
              boxShadow: '0 12px 32px rgba(27, 37, 51, 0.14)',
            },
          },
        }}
      >
        <Box sx={{ px: 2, py: 1.5 }}>
          <Typography id={headingId} variant="h4" component="h2">
            Notifications
          </Typography>
        </Box>
        <Divider />
        <Box sx={{ overflowY: 'auto', flex: 1 }}>
          <PanelBody state={notifications} isNew={(item) => seenSince(item, openedAt)} onOpenLink={openLink} />
        </Box>
      </Popover>
    </>
  );
}

interface PanelBodyProps {
  state: NotificationsState;
  isNew: (item: Notification) => boolean;
  onOpenLink: (link: string) => void;
}

function PanelBody({ state, isNew, onOpenLink }: PanelBodyProps) {
  const { items, isLoading, error, hasMore, isLoadingMore, loadMore, retry } = state;

  if (isLoading) {
    return (
      <Stack role="status" spacing={1.5} sx={{ alignItems: 'center', py: 5 }}>
        <CircularProgress size={24} aria-hidden="true" />
        <Typography variant="body2" color="text.secondary">
          Loading notifications…
        </Typography>
      </Stack>
    );
  }

  if (error && items.length === 0) {
    return (
      <Box sx={{ p: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={retry}>
              Retry
            </Button>
          }
        >
          Notifications could not be loaded{error.status ? ` (status ${error.status})` : ''}. {error.message}
        </Alert>
      </Box>
    );
  }

  if (items.length === 0) {
    return (
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 5, px: 3 }}>
        <NotificationsNoneOutlinedIcon color="disabled" sx={{ fontSize: 40 }} aria-hidden="true" />
        <Typography variant="subtitle2">No notifications yet</Typography>
        <Typography variant="caption" color="text.secondary">
          You will be told here when work you started in the background is done.
        </Typography>
      </Stack>
    );
  }

  return (
    <>
      <List disablePadding aria-label="Notifications">
        {items.map((item) => {
          const link = item.link;
          return (
            <NotificationItem
              key={item.id}
              notification={item}
              isNew={isNew(item)}
              onOpen={isInternalPath(link) ? () => onOpenLink(link) : undefined}
            />
          );
        })}
      </List>
      {error && (
        <Alert severity="error" sx={{ m: 2 }}>
          More notifications could not be loaded. {error.message}
        </Alert>
      )}
      {hasMore && (
        <Box sx={{ p: 1.5, textAlign: 'center' }}>
          <Button
            onClick={loadMore}
            disabled={isLoadingMore}
            startIcon={isLoadingMore ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
          >
            {isLoadingMore ? 'Loading…' : 'Load more'}
          </Button>
        </Box>
      )}
    </>
  );
}
