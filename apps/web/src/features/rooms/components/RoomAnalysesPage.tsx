import { useSearchParams, Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { SimulationResultsPage } from '../../simulation-results';
import { roomScenePath, uploadScreenshot, useRefreshRooms, useRoomScene, useRoomScreenshots } from '../api';
import { useRoomLocation } from '../hooks/useRoomLocation';
import { ScreenshotGallery } from './ScreenshotGallery';

/**
 * `/projects/room/analyses?project=&room=&simulation=` (issue 16 item 5): a simulation's results page in its room.
 * The room lends it its screenshot gallery (one gallery per room, the scene's and the results' pictures together,
 * previewed in the shared modal) and who may add to it; the results page itself lives in features/simulation-results.
 * The results do not wait for the room (its name and the gallery's permission): both are asked for at once.
 */
export function RoomAnalysesPage() {
  const { deviceId, projectId, roomId, namedDeviceId, loading, error } = useRoomLocation();
  const [params] = useSearchParams();
  const simulationId = params.get('simulation');
  const scene = useRoomScene(deviceId, projectId, roomId);
  const screenshots = useRoomScreenshots(deviceId, projectId, roomId);
  const refreshRooms = useRefreshRooms();

  if (!projectId || !roomId || !simulationId)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        <Alert severity="info">Open a simulation’s results from the simulation list of its room or project.</Alert>
      </Container>
    );
  if (error || loading || !deviceId)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        {error ? <Alert severity="error">{error}</Alert> : <Loading what="the room" />}
      </Container>
    );

  const roomLink = `${roomScenePath(projectId, roomId)}${namedDeviceId ? `&device=${namedDeviceId}` : ''}`;
  const keep = async (png: Blob) => {
    const shot = await uploadScreenshot(deviceId, projectId, roomId, png);
    await screenshots.mutate(
      (current) => ({ items: [shot, ...(current?.items ?? []).filter((item) => item.id !== shot.id)] }),
      { revalidate: false },
    );
    void refreshRooms(deviceId, projectId);
  };
  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, md: 3 } }}>
      <SimulationResultsPage
        deviceId={deviceId}
        projectId={projectId}
        simulationId={simulationId}
        back={
          scene.error && !scene.data ? (
            <LoadFailure what="The room" error={scene.error} retry={() => void scene.mutate()} />
          ) : (
            <Link component={RouterLink} to={roomLink} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
              <ArrowBackIcon fontSize="small" aria-hidden="true" /> {scene.data?.room.name ?? 'Back to the room'}
            </Link>
          )
        }
        gallery={
          <ScreenshotGallery
            data={screenshots.data}
            error={screenshots.error}
            retry={() => void screenshots.mutate()}
          />
        }
        onScreenshot={scene.data?.canEdit ? keep : null}
      />
    </Container>
  );
}
