import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import type { Notification } from '@insilico/contracts';
import { formatDateTime } from '../../../lib/formatDate';

interface NotificationItemProps {
  notification: Notification;
  /** Unseen when the panel was opened: marked with a dot and "New" for screen readers. */
  isNew: boolean;
  /** Given when the notification leads somewhere. */
  onOpen?: () => void;
}

function Content({ notification, isNew }: Omit<NotificationItemProps, 'onOpen'>) {
  return (
    <Box sx={{ display: 'flex', gap: 1.5, width: '100%', alignItems: 'flex-start' }}>
      <Box
        aria-hidden="true"
        sx={{
          width: 8,
          height: 8,
          mt: 0.9,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: isNew ? 'primary.main' : 'transparent',
        }}
      />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: isNew ? 800 : 600 }}>
          {isNew && (
            <Box component="span" sx={visuallyHidden}>
              New:{' '}
            </Box>
          )}
          {notification.title}
        </Typography>
        {notification.body && (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
          >
            {notification.body}
          </Typography>
        )}
        <Typography variant="caption" color="text.secondary" component="time" dateTime={notification.createdAt}>
          {formatDateTime(notification.createdAt)}
        </Typography>
      </Box>
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** One row of the notification panel. */
export function NotificationItem({ notification, isNew, onOpen }: NotificationItemProps) {
  const background = isNew ? 'rgba(11, 79, 138, 0.05)' : undefined;
  if (onOpen) {
    return (
      <ListItem disablePadding divider>
        <ListItemButton onClick={onOpen} sx={{ py: 1.5, px: 2, bgcolor: background }}>
          <Content notification={notification} isNew={isNew} />
        </ListItemButton>
      </ListItem>
    );
  }
  return (
    <ListItem divider sx={{ py: 1.5, px: 2, bgcolor: background }}>
      <Content notification={notification} isNew={isNew} />
    </ListItem>
  );
}
