import { useSearchParams } from 'react-router';
import type { MemberRole } from '@insilico/contracts';
import { useDevices, useSelectedDevice } from '../../devices';

export interface CohortDevice {
  deviceId: string | null;
  /** The caller's role there, once known (null while loading): pages a role cannot use say so before any form. */
  role: MemberRole | null;
  loading: boolean;
  error: string | null;
}

/**
 * The workspace the cohort pages work in: the one a link names (`?device=`, as in the cohort-ready notification,
 * which may arrive while another workspace is selected), else the selected one.
 */
export function useCohortDevice(): CohortDevice {
  const [params] = useSearchParams();
  const named = params.get('device');
  const selected = useSelectedDevice();
  const devices = useDevices();
  if (named) {
    const role = devices.data?.items.find((item) => item.deviceId === named)?.role ?? null;
    return { deviceId: named, role, loading: false, error: null };
  }
  if (selected.error && !selected.data)
    return { deviceId: null, role: null, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, role: null, loading: true, error: null };
  const device = selected.data.device;
  return { deviceId: device?.deviceId ?? null, role: device?.role ?? null, loading: false, error: null };
}
