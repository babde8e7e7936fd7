import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BrandMark } from './BrandMark';

interface FullPageStatusProps {
  title: string;
  message?: ReactNode;
  /** A spinner instead of an icon, for states that resolve on their own. */
  busy?: boolean;
  icon?: ReactNode;
  actions?: ReactNode;
  /** `alert` for failures so screen readers announce them; `status` otherwise. */
  role?: 'status' | 'alert';
}

/** A centred card for whole-page states before the shell can render (session loading, redirect, error). */
export function FullPageStatus({ title, message, busy = false, icon, actions, role = 'status' }: FullPageStatusProps) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 2, bgcolor: 'background.default' }}
    >
      <Paper
        variant="outlined"
        role={role}
        aria-live={role === 'alert' ? 'assertive' : 'polite'}
        aria-busy={busy}
        sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 }, textAlign: 'center', borderRadius: 3 }}
      >
        <Stack spacing={2.5} sx={{ alignItems: 'center' }}>
          <BrandMark />
          {busy ? <CircularProgress size={28} aria-hidden="true" /> : icon}
          <Typography variant="h3" component="h1">
            {title}
          </Typography>
          {message !== undefined && (
            <Typography variant="body2" color="text.secondary" component="div">
              {message}
            </Typography>
          )}
          {actions}
        </Stack>
      </Paper>
    </Box>
  );
}
