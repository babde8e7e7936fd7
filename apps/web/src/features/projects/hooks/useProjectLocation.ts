import { useSearchParams } from 'react-router';
import { useSelectedDevice } from '../../devices';

export interface ProjectLocation {
  deviceId: string | null;
  projectId: string | null;
  /** The workspace the address names (`?device=`), kept on the tabs' links; null when it names none. */
  namedDeviceId: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * The project a page shows (`?project=<uuid>`) and its workspace: the one the address names (`?device=`, as the
 * notifications' links do — they may be opened while another workspace is selected), else the selected one.
 */
export function useProjectLocation(): ProjectLocation {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const namedDeviceId = params.get('device');
  const selected = useSelectedDevice();
  if (namedDeviceId) return { deviceId: namedDeviceId, projectId, namedDeviceId, loading: false, error: null };
  if (selected.error && !selected.data)
    return { deviceId: null, projectId, namedDeviceId, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, projectId, namedDeviceId, loading: true, error: null };
  return { deviceId: selected.data.device?.deviceId ?? null, projectId, namedDeviceId, loading: false, error: null };
}
