import Chip from '@mui/material/Chip';
import { supportRequestStatusLabels, type SupportRequestStatus } from '@insilico/contracts';

const colors = { open: 'warning', answered: 'success', closed: 'default' } as const;

/** A request's status: open (waiting for support), answered, closed. */
export function StatusChip({ status }: { status: SupportRequestStatus }) {
  return <Chip size="small" label={supportRequestStatusLabels[status]} color={colors[status]} variant="outlined" />;
}
