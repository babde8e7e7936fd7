import { useSearchParams } from 'react-router';
import { useSelectedDevice } from '../../devices';

/** The project a page shows (`?project=<uuid>`) in the selected workspace, and whether the workspace is known yet. */
export function useProjectLocation(): {
  deviceId: string | null;
  projectId: string | null;
  loading: boolean;
  error: string | null;
} {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const selected = useSelectedDevice();
  if (selected.error && !selected.data)
    return { deviceId: null, projectId, loading: false, error: selected.error.message };
  if (!selected.data) return { deviceId: null, projectId, loading: true, error: null };
  return { deviceId: selected.data.device?.deviceId ?? null, projectId, loading: false, error: null };
}
