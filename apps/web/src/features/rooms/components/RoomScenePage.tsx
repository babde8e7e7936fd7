import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { roomNameMaxLength, roomNameTakenMessage, type RoomScene } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { RenameField } from '../../../components/RenameField';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { ApiError } from '../../../lib/apiError';
import { productName } from '../../../lib/product';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { imagingPatientPath } from '../../imaging-patients';
import { RoomSimulations, type RegionPlanes } from '../../simulations';
import { SsmRoomShape } from '../../ssm';
import { renameRoom, saveRoomScene, uploadScreenshot, useRefreshRooms, useRoomScene, useRoomScreenshots } from '../api';
import { useTrackOnce } from '../../analytics';
import { useRoomLocation } from '../hooks/useRoomLocation';
import { draftOf, isDirty, saveBodyOf, type SceneDraft } from '../placements';
import { ScreenshotGallery } from './ScreenshotGallery';

const RoomWorkspace = lazy(() => import('./RoomWorkspace').then((module) => ({ default: module.RoomWorkspace })));

/**
 * A room's scene (`/projects/room?project=&room=`): the patient's anatomy with device versions placed in it, saved
 * explicitly (a dirty mark and a leave confirmation while unsaved), the room's name renamed in place, and the
 * screenshot gallery.
 */
export function RoomScenePage() {
  const { deviceId, projectId, roomId, namedDeviceId, loading, error } = useRoomLocation();
  const scene = useRoomScene(deviceId, projectId, roomId);
  useTrackOnce('room opened', { projectId, roomId });
  const screenshots = useRoomScreenshots(deviceId, projectId, roomId);
  // The Rooms tab shows names, placement and screenshot counts and the latest screenshot: each change here
  // makes it stale (issue 14: it stayed stale until a reload).
  const refreshRooms = useRefreshRooms();
  const [saved, setSaved] = useState<SceneDraft | null>(null);
  const [draft, setDraft] = useState<SceneDraft | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  // The simulated region of the set-up being edited, drawn in the scene.
  const [regionPlanes, setRegionPlanes] = useState<RegionPlanes | null>(null);

  // The first answer starts the draft (set while rendering, React's way to derive state from data once);
  // later answers (after a save or a rename) do not overwrite edits.
  if (scene.data && saved === null) {
    setSaved(draftOf(scene.data));
    setDraft(draftOf(scene.data));
  }

  // Stable: the 3D workspace builds its scene once per identity of this callback.
  const onDraft = useCallback(
    (update: (current: SceneDraft) => SceneDraft) => setDraft((current) => (current ? update(current) : current)),
    [],
  );
  const dirty = useMemo(() => saved !== null && draft !== null && isDirty(saved, draft), [saved, draft]);
  const leave = useLeaveConfirmation(dirty);
  // The simulation set-up follows the saved placements (a run uses them, never the draft).
  const savedRevision = useMemo(
    () => JSON.stringify(saved?.placements.map((placement) => [placement.versionId, placement.transform]) ?? []),
    [saved],
  );
  const name = scene.data?.room.name;
  useEffect(() => {
    if (name) document.title = `${name} · ${productName}`;
  }, [name]);

  if (!projectId || !roomId)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        <Alert severity="info">Open a room from the Rooms tab of a project.</Alert>
      </Container>
    );
  const back = `/projects/view/rooms?${new URLSearchParams({ project: projectId, ...(namedDeviceId ? { device: namedDeviceId } : {}) }).toString()}`;
  if (error || loading || !deviceId || scene.error || !scene.data || !draft)
    return (
      <Container maxWidth="lg" sx={{ py: 4 }}>
        {error ? (
          <Alert severity="error">{error}</Alert>
        ) : scene.error ? (
          <LoadFailure what="The room" error={scene.error} retry={() => void scene.mutate()} />
        ) : (
          <Loading what="the room" />
        )}
      </Container>
    );

  const data: RoomScene = scene.data;
  const save = async () => {
    setSaving(true);
    setSaveError(null);
    try {
      const answer = await saveRoomScene(deviceId, projectId, roomId, saveBodyOf(draft));
      await scene.mutate(answer, { revalidate: false });
      void refreshRooms(deviceId, projectId);
      // Saved placements get ids: the draft takes them, so the next save compares like with like.
      setSaved(draftOf(answer));
      setDraft(draftOf(answer));
      setNotice('The room is saved.');
    } catch (caught) {
      setSaveError((caught as ApiError).message);
    } finally {
      setSaving(false);
    }
  };

  const takeScreenshot = async (png: Blob) => {
    try {
      const shot = await uploadScreenshot(deviceId, projectId, roomId, png);
      await screenshots.mutate(
        (current) => ({ items: [shot, ...(current?.items ?? []).filter((item) => item.id !== shot.id)] }),
        { revalidate: false },
      );
      void refreshRooms(deviceId, projectId);
      setNotice('The screenshot is in the room’s gallery.');
    } catch (caught) {
      setNotice(`The screenshot could not be kept. ${(caught as ApiError).message}`);
    }
  };

  const rename = async (next: string) => {
    try {
      const room = await renameRoom(deviceId, projectId, roomId, next);
      await scene.mutate((current) => (current ? { ...current, room } : current), { revalidate: false });
      void refreshRooms(deviceId, projectId);
      return 'saved' as const;
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) return 'duplicate' as const;
      throw caught;
    }
  };

  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, md: 3 } }}>
      <Stack spacing={2}>
        <Link component={RouterLink} to={back} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <ArrowBackIcon fontSize="small" aria-hidden="true" /> Rooms of the project
        </Link>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="overline" color="primary" component="p">
              Room
            </Typography>
            <RenameField
              value={data.room.name}
              noun="room"
              editable={data.canEdit}
              duplicateMessage={roomNameTakenMessage}
              maxLength={roomNameMaxLength}
              onRename={rename}
              variant="h4"
            />
            {data.room.subject.kind === 'patient' && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography color="text.secondary">
                  Patient {data.room.subject.patientId} of {data.room.subject.cohortName}
                </Typography>
                <PatientOriginLabel origin="synthetic" />
              </Stack>
            )}
            {data.room.subject.kind === 'imaging' && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Link
                  component={RouterLink}
                  to={imagingPatientPath(deviceId, projectId, data.room.subject.datasetId, data.room.subject.patientId)}
                  color="text.secondary"
                >
                  Patient {data.room.subject.patientId} of {data.room.subject.datasetName}
                </Link>
                <PatientOriginLabel origin="imaging" />
              </Stack>
            )}
          </Stack>
          {data.canEdit && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              {dirty && <Chip color="warning" label="Unsaved changes" size="small" />}
              <Button
                variant="contained"
                startIcon={
                  saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <SaveOutlinedIcon />
                }
                onClick={() => void save()}
                disabled={!dirty || saving}
              >
                Save
              </Button>
            </Stack>
          )}
        </Stack>
        {saveError && (
          <Alert severity="error" role="alert" onClose={() => setSaveError(null)}>
            The room could not be saved. {saveError}
          </Alert>
        )}
        {data.room.subject.kind === 'ssm' && (
          <SsmRoomShape
            deviceId={deviceId}
            projectId={projectId}
            ssmId={data.room.subject.ssmId}
            shape={draft.view.phase}
            onShape={(label) => onDraft((current) => ({ ...current, view: { ...current.view, phase: label } }))}
          />
        )}
        <Suspense fallback={<Loading what="the 3D scene" />}>
          <RoomWorkspace
            scene={data}
            draft={draft}
            onDraft={onDraft}
            canEdit={data.canEdit}
            onScreenshot={takeScreenshot}
            regionPlanes={regionPlanes}
          />
        </Suspense>
        <RoomSimulations
          deviceId={deviceId}
          projectId={projectId}
          roomId={roomId}
          roomName={data.room.name}
          roomRevision={savedRevision}
          unsaved={dirty}
          onPlanes={setRegionPlanes}
        />
        <ScreenshotGallery data={screenshots.data} error={screenshots.error} retry={() => void screenshots.mutate()} />
      </Stack>
      <Snackbar
        open={notice !== null}
        autoHideDuration={4000}
        onClose={() => setNotice(null)}
        message={notice}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
      {leave.dialog}
    </Container>
  );
}
