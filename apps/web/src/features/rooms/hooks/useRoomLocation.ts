import { useSearchParams } from 'react-router';
import { useSelectedDevice } from '../../devices';

export interface RoomLocation {
  deviceId: string | null;
  projectId: string | null;
  roomId: string | null;
  /** The workspace the address names (`?device=`), kept on links back to the project; null when it names none. */
  namedDeviceId: string | null;
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
  const namedDeviceId = params.get('device');
  const at = { projectId, roomId, namedDeviceId };
  if (namedDeviceId) return { ...at, deviceId: namedDeviceId, loading: false, error: null };
  if (selected.error && !selected.data) return { ...at, deviceId: null, loading: false, error: selected.error.message };
  if (!selected.data) return { ...at, deviceId: null, loading: true, error: null };
  return { ...at, deviceId: selected.data.device?.deviceId ?? null, loading: false, error: null };
}
