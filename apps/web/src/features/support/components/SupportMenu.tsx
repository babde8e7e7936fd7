import { Suspense, useId, useState, type MouseEvent } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { lazyPanel, useOpenedOnce } from '../../../components/lazyPanel';
import { preloadSupportContext } from '../api';
import { useAskSupport } from '../useAskSupport';

const menu = lazyPanel(async () => (await import('./SupportMenuPanel')).SupportMenuPanel);
const drawer = lazyPanel(async () => (await import('./AskSupportDrawer')).AskSupportDrawer);

/** Ahead of a click: the menu's and the drawer's code, and whether the user is support staff (the menu's last item). */
function preload() {
  menu.preload();
  drawer.preload();
  preloadSupportContext();
}

/**
 * The top bar's help button: ask support (the drawer, also opened by `?drawer=ask-support`), the help page, and for
 * support staff the inbox. Menu and drawer load on first use.
 */
export function SupportMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const askSupport = useAskSupport();
  const open = anchor !== null;
  const menuMounted = useOpenedOnce(open);
  const drawerMounted = useOpenedOnce(askSupport.isOpen);

  return (
    <>
      <Tooltip title="Help and support">
        <IconButton
          aria-label="Help and support"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        >
          <HelpOutlineIcon />
        </IconButton>
      </Tooltip>
      <Suspense fallback={null}>
        {menuMounted && (
          <menu.Panel id={menuId} anchor={anchor} onClose={() => setAnchor(null)} onAskSupport={askSupport.open} />
        )}
        {drawerMounted && (
          <drawer.Panel open={askSupport.isOpen} onClose={askSupport.close} prefill={askSupport.prefill} />
        )}
      </Suspense>
    </>
  );
}
