import { Suspense, useId, useState, type MouseEvent } from 'react';
import Avatar from '@mui/material/Avatar';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { lazyPanel, useOpenedOnce } from '../../components/lazyPanel';
import { initialsOf } from '../../lib/initials';
import { useSignedInUser } from '../user/userContext';

const menu = lazyPanel(async () => (await import('./AccountMenuPanel')).AccountMenuPanel);

/** The avatar button with the settings pages and Sign out (the menu loads on first use). */
export function AccountMenu() {
  const user = useSignedInUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const mounted = useOpenedOnce(open);
  const menuId = useId();

  return (
    <>
      <Tooltip title="Account and settings">
        <IconButton
          aria-label="Account and settings"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onPointerEnter={menu.preload}
          onFocus={menu.preload}
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
          sx={{ p: 0.5 }}
        >
          <Avatar
            src={user.pictureUrl ?? undefined}
            alt=""
            sx={{ width: 34, height: 34, fontSize: 14, fontWeight: 800, bgcolor: 'primary.main' }}
          >
            {initialsOf(user.fullName)}
          </Avatar>
        </IconButton>
      </Tooltip>
      {mounted && (
        <Suspense fallback={null}>
          <menu.Panel id={menuId} anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
