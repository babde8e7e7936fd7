import Chip from '@mui/material/Chip';
import type { DeviceVersionStatus } from '@insilico/contracts';

const look: Record<DeviceVersionStatus, { label: string; color: 'info' | 'success' | 'error' | 'default' }> = {
  uploading: { label: 'Uploading', color: 'default' },
  processing: { label: 'Processing', color: 'info' },
  ready: { label: 'Ready', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
};

/** The processing status of a device version. */
export function DeviceVersionStatusChip({ status }: { status: DeviceVersionStatus }) {
  return <Chip size="small" label={look[status].label} color={look[status].color} variant="filled" />;
}
