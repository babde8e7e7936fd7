import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** One titled card of a settings page (a landmark named by its title). */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: { xs: 2.5, md: 4 }, borderRadius: 3 }}>
      <Typography variant="h2" sx={{ fontSize: 18, mb: 2.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
