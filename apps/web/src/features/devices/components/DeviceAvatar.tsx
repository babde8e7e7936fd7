import Avatar from '@mui/material/Avatar';
import type { DeviceSummary } from '@insilico/contracts';
import { initialsOf } from '../../../lib/initials';

/** A workspace's picture, or its initials. */
export function DeviceAvatar({ device, size }: { device: DeviceSummary; size: number }) {
  return (
    <Avatar
      variant="rounded"
      src={device.devicePicture ?? undefined}
      alt=""
      sx={{ width: size, height: size, fontSize: size * 0.4, fontWeight: 800, bgcolor: 'secondary.main' }}
    >
      {initialsOf(device.deviceName)}
    </Avatar>
  );
}
