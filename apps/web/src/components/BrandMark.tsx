import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { productName } from '../lib/product';

/** The product's logo and name. */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <Box
        component="svg"
        viewBox="0 0 32 32"
        aria-hidden="true"
        sx={{ width: 32, height: 32, flexShrink: 0, display: 'block' }}
      >
        <rect width="32" height="32" rx="7" fill="#0b4f8a" />
        <path
          d="M6 17h5l2.5-6 4 12 3-8 1.5 2H26"
          fill="none"
          stroke="#fff"
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </Box>
      {!compact && (
        <Typography
          component="span"
          sx={{ fontSize: 18, fontWeight: 800, color: 'text.primary', whiteSpace: 'nowrap', letterSpacing: '-0.01em' }}
        >
          {productName}
        </Typography>
      )}
    </Box>
  );
}
