import Chip from '@mui/material/Chip';
import type { ProjectStatus } from '@insilico/contracts';
import { statusColors, statusLabels } from '../labels';

export function ProjectStatusChip({ status, size = 'small' }: { status: ProjectStatus; size?: 'small' | 'medium' }) {
  return (
    <Chip
      label={statusLabels[status]}
      color={statusColors[status]}
      size={size}
      variant={status === 'active' ? 'filled' : 'outlined'}
    />
  );
}
