import Chip from '@mui/material/Chip';
import type { CohortStatus } from '@insilico/contracts';

const look: Record<CohortStatus, { label: string; color: 'info' | 'success' | 'error' }> = {
  in_progress: { label: 'In progress', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

/** The status of a cohort order. */
export function CohortStatusChip({ status }: { status: CohortStatus }) {
  return <Chip size="small" label={look[status].label} color={look[status].color} variant="filled" />;
}
