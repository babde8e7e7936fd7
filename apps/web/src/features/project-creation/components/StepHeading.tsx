import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The heading of one wizard page, below the stepper. */
export function StepHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h2" sx={{ fontSize: 24 }}>
        {title}
      </Typography>
      {children && (
        <Typography color="text.secondary" sx={{ mt: 0.5, maxWidth: 720 }}>
          {children}
        </Typography>
      )}
    </Box>
  );
}
