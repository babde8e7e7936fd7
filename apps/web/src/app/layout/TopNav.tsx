import { Suspense, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import MenuIcon from '@mui/icons-material/Menu';
import { WorkspaceSwitcher } from '../../features/devices';
import { NotificationBell } from '../../features/notifications';
import { SupportMenu } from '../../features/support';
import { BrandMark } from '../../components/BrandMark';
import { lazyPanel, useOpenedOnce } from '../../components/lazyPanel';
import { AccountMenu } from './AccountMenu';
import { isCurrentSection, mainSections } from './navigation';

const drawer = lazyPanel(async () => (await import('./NavDrawer')).NavDrawer);

/** The top bar: product name, main sections (a drawer below 960 px), workspace switcher, notification bell and account menu. */
export function TopNav() {
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerMounted = useOpenedOnce(drawerOpen);

  return (
    <AppBar
      position="sticky"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Toolbar sx={{ gap: 1, minHeight: { xs: 60, md: 64 } }}>
        <IconButton
          edge="start"
          aria-label="Open navigation"
          onPointerEnter={drawer.preload}
          onFocus={drawer.preload}
          onClick={() => setDrawerOpen(true)}
          sx={{ display: { xs: 'inline-flex', md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        <Box
          component={RouterLink}
          to="/"
          aria-label="Home"
          sx={{
            textDecoration: 'none',
            mr: { md: 3 },
            borderRadius: 1,
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 4 },
          }}
        >
          <BrandMark />
        </Box>
        <Stack
          component="nav"
          aria-label="Main"
          direction="row"
          spacing={0.5}
          sx={{ display: { xs: 'none', md: 'flex' }, height: '100%' }}
        >
          {mainSections.map((section) => {
            const current = isCurrentSection(section, pathname);
            return (
              <Button
                key={section.to}
                component={RouterLink}
                to={section.to}
                aria-current={current ? 'page' : undefined}
                color={current ? 'primary' : 'inherit'}
                sx={{
                  px: 1.5,
                  color: current ? 'primary.main' : 'text.secondary',
                  position: 'relative',
                  whiteSpace: 'nowrap',
                  '&::after': {
                    content: '""',
                    position: 'absolute',
                    left: 12,
                    right: 12,
                    bottom: -13,
                    height: 3,
                    borderRadius: '3px 3px 0 0',
                    bgcolor: current ? 'primary.main' : 'transparent',
                  },
                  '&:hover': { color: 'text.primary' },
                }}
              >
                {section.label}
              </Button>
            );
          })}
        </Stack>
        <Box sx={{ flex: 1 }} />
        <WorkspaceSwitcher />
        <SupportMenu />
        <NotificationBell />
        <AccountMenu />
      </Toolbar>
      {drawerMounted && (
        <Suspense fallback={null}>
          <drawer.Panel open={drawerOpen} pathname={pathname} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
    </AppBar>
  );
}
