import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { swrConfig } from './swrConfig';
import { theme } from './theme';
import { UserProvider } from './user/UserProvider';

/** Theme, data fetching and the session, around the whole app. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SWRConfig value={swrConfig}>
        <UserProvider>{children}</UserProvider>
      </SWRConfig>
    </ThemeProvider>
  );
}
