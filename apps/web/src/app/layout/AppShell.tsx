import { Outlet } from 'react-router';
import Box from '@mui/material/Box';
import { Analytics } from '../../features/analytics';
import { ScrollToTop } from './ScrollToTop';
import { TopNav } from './TopNav';

const mainId = 'main-content';

/** The frame of every signed-in page: a skip link, the top bar and the page. */
export function AppShell() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <ScrollToTop />
      <Box
        component="a"
        href={`#${mainId}`}
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 2000,
          px: 2,
          py: 1,
          borderRadius: 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          fontWeight: 700,
          textDecoration: 'none',
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      <TopNav />
      <Analytics />
      <Box component="main" id={mainId} tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
        <Outlet />
      </Box>
    </Box>
  );
}
