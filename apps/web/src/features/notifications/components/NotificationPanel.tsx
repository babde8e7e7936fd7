import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import type { Notification } from '@insilico/contracts';
import type { NotificationsState } from '../hooks/useNotifications';
import { NotificationItem } from './NotificationItem';

/** Only same-origin paths are followed; anything else stays unlinked. */
function isInternalPath(link: string | null): link is string {
  return link !== null && link.startsWith('/') && !link.startsWith('//') && !link.startsWith('/\\');
}

export interface NotificationPanelProps {
  id: string;
  headingId: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  state: NotificationsState;
  isNew: (item: Notification) => boolean;
  onOpenLink: (link: string) => void;
}

/** The bell's panel (loaded on first use): the notifications, newest first, with "Load more". */
export function NotificationPanel({
  id,
  headingId,
  anchor,
  onClose,
  state,
  isNew,
  onOpenLink,
}: NotificationPanelProps) {
  return (
    <Popover
      id={id}
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
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
        <PanelBody state={state} isNew={isNew} onOpenLink={onOpenLink} />
      </Box>
    </Popover>
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
