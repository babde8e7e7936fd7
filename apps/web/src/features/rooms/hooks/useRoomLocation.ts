import { useSearchParams } from 'react-router';
import { useSelectedDevice } from '../../devices';

export interface RoomLocation {
  deviceId: string | null;
  projectId: string | null;
  roomId: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * Where the room pages work: `?project=` and `?room=` of the URL, and the workspace a link names (`?device=`, as
 * the "room shared" notification does, which may arrive while another workspace is selected), else the selected one.
 */
export function useRoomLocation(): RoomLocation {
  const [params] = useSearchParams();
  const selected = useSelectedDevice();
  const projectId = params.get('project');
  const roomId = params.get('room');
  const named = params.get('device');
  if (named) return { deviceId: named, projectId, roomId, loading: false, error: null };
  if (selected.error && !selected.data)
    return { deviceId: null, projectId, roomId, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, projectId, roomId, loading: true, error: null };
  return { deviceId: selected.data.device?.deviceId ?? null, projectId, roomId, loading: false, error: null };
}
