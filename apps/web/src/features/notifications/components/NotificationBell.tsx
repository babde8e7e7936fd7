import { Suspense, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import type { Notification } from '@insilico/contracts';
import { lazyPanel, useOpenedOnce } from '../../../components/lazyPanel';
import { useNotifications } from '../hooks/useNotifications';
import { useNotificationStream } from '../hooks/useNotificationStream';

const panel = lazyPanel(async () => (await import('./NotificationPanel')).NotificationPanel);

function seenSince(item: Notification, openedAt: number | null): boolean {
  if (item.seenAt === null) return true;
  return openedAt !== null && Date.parse(item.seenAt) >= openedAt;
}

/**
 * The bell in the top bar: an unseen dot, and a panel listing notifications that marks them seen when opened. The
 * panel's code loads on first use.
 */
export function NotificationBell() {
  const notifications = useNotifications();
  const { items, hasUnseen, markSeen, receive, setHasUnseen } = notifications;
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const requested = useRef({ ids: new Set<string>(), all: false });
  const open = anchor !== null;
  const mounted = useOpenedOnce(open);
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
          onPointerEnter={panel.preload}
          onFocus={panel.preload}
          onClick={handleOpen}
        >
          <Badge variant="dot" color="error" invisible={!hasUnseen} overlap="circular">
            <NotificationsOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      {mounted && (
        <Suspense fallback={null}>
          <panel.Panel
            id={panelId}
            headingId={headingId}
            anchor={anchor}
            onClose={handleClose}
            state={notifications}
            isNew={(item) => seenSince(item, openedAt)}
            onOpenLink={openLink}
          />
        </Suspense>
      )}
    </>
  );
}
