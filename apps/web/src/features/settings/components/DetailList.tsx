import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Read-only details as a definition list (what non-admins see of the device and company). */
export function DetailList({ items }: { items: readonly (readonly [label: string, value: string])[] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      {items.map(([label, value]) => (
        <Box key={label}>
          <Typography variant="caption" color="text.secondary" component="dt">
            {label}
          </Typography>
          <Typography variant="body1" component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
