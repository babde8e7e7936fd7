import { Suspense, useId, useState, type MouseEvent } from 'react';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { lazyPanel, useOpenedOnce } from '../../../components/lazyPanel';
import { useSelectedDevice } from '../api';
import { DeviceAvatar } from './DeviceAvatar';

const menu = lazyPanel(async () => (await import('./WorkspaceMenu')).WorkspaceMenu);

/** The workspace switcher of the top bar: the selected workspace, and a menu of the others (loaded on first use). */
export function WorkspaceSwitcher() {
  const selected = useSelectedDevice();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const open = anchor !== null;
  const mounted = useOpenedOnce(open);
  const current = selected.data?.device ?? null;

  const label = current ? `Workspace: ${current.deviceName}` : 'Workspace: none';
  return (
    <>
      <Button
        color="inherit"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onPointerEnter={menu.preload}
        onFocus={menu.preload}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        endIcon={<ExpandMoreIcon aria-hidden="true" />}
        sx={{ textTransform: 'none', maxWidth: { xs: 96, sm: 240 }, px: 1, color: 'text.primary' }}
      >
        {current && <DeviceAvatar device={current} size={26} />}
        <Typography
          variant="body2"
          noWrap
          sx={{ fontWeight: 700, ml: current ? 1 : 0, display: { xs: current ? 'none' : 'block', sm: 'block' } }}
        >
          {current ? current.deviceName : 'Workspace'}
        </Typography>
      </Button>
      {mounted && (
        <Suspense fallback={null}>
          <menu.Panel id={menuId} anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
