import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { devicesKey, selectDevice, selectedDeviceKey, useSelectedDevice } from '../../devices';

/**
 * The workspace of the versions page. A link that names one (`?device=`, as the processing notification does,
 * which may arrive while another workspace is selected) selects it, so the switcher and the page agree.
 */
export function useVersionsDevice(): {
  deviceId: string | null;
  /** Admins and members create versions; guests only read (the server enforces it too). */
  canCreate: boolean;
  loading: boolean;
  error: string | null;
} {
  const [params] = useSearchParams();
  const named = params.get('device');
  const selected = useSelectedDevice();
  const { mutate } = useSWRConfig();
  const current = selected.data?.device?.deviceId ?? null;
  useEffect(() => {
    if (!named || !selected.data || current === named) return;
    void selectDevice(named)
      .then(() => Promise.all([mutate(selectedDeviceKey), mutate(devicesKey)]))
      // Not a workspace of this user any more: the page then shows the selected one's versions.
      .catch(() => undefined);
  }, [named, current, selected.data, mutate]);
  if (selected.error && !selected.data)
    return { deviceId: null, canCreate: false, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, canCreate: false, loading: true, error: null };
  const role = selected.data.device?.role;
  return { deviceId: named ?? current, canCreate: role === 'admin' || role === 'member', loading: false, error: null };
}
