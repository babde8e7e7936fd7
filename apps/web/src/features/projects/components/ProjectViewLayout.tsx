import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

const tabs = [
  { to: '/projects/view/stats', label: 'Stats' },
  { to: '/projects/view/rooms', label: 'Rooms' },
  { to: '/projects/view/comments', label: 'Comments' },
] as const;

/** The project view's three tabs (spec §2); each tab is its own route. */
export function ProjectViewLayout() {
  const { pathname } = useLocation();
  const current = tabs.find((tab) => pathname.startsWith(tab.to))?.to ?? false;

  return (
    <>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container maxWidth="lg">
          <Tabs value={current} aria-label="Project view" sx={{ ml: -2 }}>
            {tabs.map((tab) => (
              <Tab
                key={tab.to}
                value={tab.to}
                label={tab.label}
                component={RouterLink}
                to={tab.to}
                sx={{ minWidth: 0, px: 2 }}
              />
            ))}
          </Tabs>
        </Container>
      </Box>
      <Outlet />
    </>
  );
}
