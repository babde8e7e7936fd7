import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LiveCount } from '../hooks/useLiveCount';

const number = new Intl.NumberFormat('en-GB');

/** The live count of matching patients, announced politely to screen readers as it changes. */
export function LiveCountBanner({ count }: { count: LiveCount }) {
  if (count.error) return <Alert severity="error">{count.error}</Alert>;
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Typography role="status" aria-live="polite" aria-label="Matching patients" sx={{ fontWeight: 700 }}>
          {count.matching === null
            ? 'Counting matching patients…'
            : `${number.format(count.matching)} of ${number.format(count.population ?? 0)} synthetic patients match`}
        </Typography>
        {count.counting && <CircularProgress size={16} aria-hidden="true" />}
      </Stack>
    </Paper>
  );
}
