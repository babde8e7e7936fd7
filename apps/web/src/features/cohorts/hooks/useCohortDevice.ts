import { useSearchParams } from 'react-router';
import { useSelectedDevice } from '../../devices';

/**
 * The workspace the cohort pages work in: the one a link names (`?device=`, as in the cohort-ready notification,
 * which may arrive while another workspace is selected), else the selected one.
 */
export function useCohortDevice(): { deviceId: string | null; loading: boolean; error: string | null } {
  const [params] = useSearchParams();
  const named = params.get('device');
  const selected = useSelectedDevice();
  if (named) return { deviceId: named, loading: false, error: null };
  if (selected.error && !selected.data) return { deviceId: null, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, loading: true, error: null };
  return { deviceId: selected.data.device?.deviceId ?? null, loading: false, error: null };
}
