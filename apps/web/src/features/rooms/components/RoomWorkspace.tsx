import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  patientLandmarksSchema,
  type PatientLandmarks,
  type PlacementTransform,
  type RoomScene as RoomSceneData,
} from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CameraAltOutlinedIcon from '@mui/icons-material/CameraAltOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { apiFetch } from '../../../lib/api';
import { ORGAN_LABELS, phaseTitle } from '../../cohorts';
import { disposeOverlay, regionOverlay, type RegionPlanes } from '../../simulations';
import { transformAt, type EditedPlacement, type SceneDraft } from '../placements';
import { RoomScene, type GizmoMode } from '../roomScene';

export interface RoomWorkspaceProps {
  scene: RoomSceneData;
  draft: SceneDraft;
  onDraft: (update: (draft: SceneDraft) => SceneDraft) => void;
  canEdit: boolean;
  /** A screenshot of the view was taken (PNG). */
  onScreenshot: (png: Blob) => Promise<void>;
  /** The simulated region of the simulation being set up (inlet and outlet planes), drawn over the anatomy. */
  regionPlanes?: RegionPlanes | null;
}

const modes: { mode: GizmoMode; label: string; key: string }[] = [
  { mode: 'translate', label: 'Move', key: 'W' },
  { mode: 'rotate', label: 'Rotate', key: 'E' },
  { mode: 'scale', label: 'Scale', key: 'R' },
];
/** Where a new device appears when the phase has it: the centre of the mitral annulus. */
const DEFAULT_LANDMARK = 'mitral_annulus';

function hasWebGl(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

const landmarkLabel = (name: string) => {
  const text = name.replaceAll('_', ' ');
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
};

let newKeys = 0;

/**
 * The room's 3D workspace (three.js, loaded with this module on demand): the patient's organs for the chosen phase
 * with visibility toggles, the project's device versions placed with move/rotate/scale gizmos (keys W, E, R;
 * Delete removes, Escape deselects), snap to a landmark, and screenshots of the view.
 */
export function RoomWorkspace({
  scene,
  draft,
  onDraft,
  canEdit,
  onScreenshot,
  regionPlanes = null,
}: RoomWorkspaceProps) {
  const container = useRef<HTMLDivElement>(null);
  const view = useRef<RoomScene | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<GizmoMode>('translate');
  const [shownPhase, setShownPhase] = useState<string | null>(null);
  const [landmarks, setLandmarks] = useState<PatientLandmarks | null>(null);
  const [snapTo, setSnapTo] = useState(DEFAULT_LANDMARK);
  const [adding, setAdding] = useState('');
  const [capturing, setCapturing] = useState(false);
  const [error, setError] = useState<string | null>(() =>
    hasWebGl() ? null : 'The 3D scene needs WebGL, which this browser does not offer.',
  );
  const staticPhases = useMemo(
    () => scene.anatomy.phases.filter((phase) => !phase.startsWith('cine-')),
    [scene.anatomy.phases],
  );
  const phase = draft.view.phase ?? staticPhases[0] ?? scene.anatomy.phases[0] ?? '';
  const hidden = useMemo(() => new Set(draft.view.hiddenOrgans), [draft.view.hiddenOrgans]);
  const versions = useMemo(() => new Map(scene.versions.map((version) => [version.id, version])), [scene.versions]);
  /** The devices the view shows: key → the transform it was given (JSON). */
  const placedKeys = useRef(new Map<string, string>());

  const updatePlacement = useCallback(
    (key: string, change: Partial<EditedPlacement>) =>
      onDraft((current) => ({
        ...current,
        placements: current.placements.map((placement) =>
          placement.key === key ? { ...placement, ...change } : placement,
        ),
      })),
    [onDraft],
  );

  useEffect(() => {
    if (!container.current || !hasWebGl()) return;
    const created = new RoomScene(container.current, {
      // A gizmo drag leaves any snapped landmark behind.
      onTransform: (key, transform) => updatePlacement(key, { transform, landmark: null }),
      onSelect: (key) => setSelected(key),
    });
    view.current = created;
    const placed = placedKeys.current;
    return () => {
      created.dispose();
      view.current = null;
      placed.clear();
    };
  }, [updatePlacement]);

  // The anatomy and landmarks of the phase shown.
  useEffect(() => {
    const current = view.current;
    if (!current || !phase) return;
    let cancelled = false;
    setLandmarks(null);
    current
      .show(phase, scene.anatomy.meshUrlTemplate.replace('{phase}', phase))
      .then(() => {
        if (!cancelled) setShownPhase(phase);
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : 'The anatomy could not be loaded.');
      });
    apiFetch(scene.anatomy.landmarksUrlTemplate.replace('{phase}', phase), { schema: patientLandmarksSchema })
      .then((found) => {
        if (!cancelled) setLandmarks(found);
      })
      .catch(() => {
        if (!cancelled) setLandmarks({ patientId: '', phase, unit: 'mm', frame: '', landmarks: [] });
      });
    return () => {
      cancelled = true;
    };
  }, [phase, scene.anatomy.meshUrlTemplate, scene.anatomy.landmarksUrlTemplate]);

  useEffect(() => {
    view.current?.setVisibleOrgans(
      new Set(scene.anatomy.organs.filter((organ) => !hidden.has(organ))),
      scene.anatomy.organs,
    );
  }, [hidden, scene.anatomy.organs, shownPhase]);

  // Devices: add what the draft has and the view lacks, follow transforms, remove what left the draft.
  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const wanted = new Map(draft.placements.map((placement) => [placement.key, placement]));
    for (const [key] of placedKeys.current)
      if (!wanted.has(key)) {
        current.remove(key);
        placedKeys.current.delete(key);
      }
    for (const placement of draft.placements) {
      const signature = JSON.stringify(placement.transform);
      const known = placedKeys.current.get(placement.key);
      if (known === signature) continue;
      if (known === undefined) {
        const urls = versions.get(placement.versionId)?.files.map((file) => file.modelUrl) ?? [];
        placedKeys.current.set(placement.key, signature);
        current.place(placement.key, urls, placement.transform).catch((caught: unknown) => {
          setError(caught instanceof Error ? caught.message : 'A device model could not be loaded.');
        });
      } else {
        placedKeys.current.set(placement.key, signature);
        current.setTransform(placement.key, placement.transform);
      }
    }
  }, [draft.placements, versions]);

  useEffect(() => {
    const current = view.current;
    if (!current || !regionPlanes) return;
    const overlay = regionOverlay(regionPlanes);
    current.setOverlay(overlay);
    return () => {
      current.setOverlay(null);
      disposeOverlay(overlay);
    };
  }, [regionPlanes]);

  useEffect(() => {
    view.current?.select(canEdit ? selected : null);
  }, [selected, canEdit, draft.placements.length]);
  useEffect(() => {
    view.current?.setMode(mode);
  }, [mode]);

  const removeSelected = useCallback(() => {
    if (!selected) return;
    onDraft((current) => ({
      ...current,
      placements: current.placements.filter((placement) => placement.key !== selected),
    }));
    setSelected(null);
  }, [selected, onDraft]);

  // Keyboard shortcuts of the gizmo, unless typing in a field.
  useEffect(() => {
    if (!canEdit) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      if (event.ctrlKey || event.metaKey || event.altKey || view.current?.dragging) return;
      const shortcut = modes.find((entry) => entry.key === event.key.toUpperCase());
      if (shortcut) setMode(shortcut.mode);
      else if ((event.key === 'Delete' || event.key === 'Backspace') && selected) removeSelected();
      else if (event.key === 'Escape') setSelected(null);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canEdit, selected, removeSelected]);

  const planeLandmarks = landmarks?.landmarks ?? [];
  const add = (versionId: string) => {
    const version = versions.get(versionId);
    if (!version) return;
    const anchor = planeLandmarks.find((landmark) => landmark.name === DEFAULT_LANDMARK)?.position ?? [0, 0, 0];
    newKeys += 1;
    const key = `new-${newKeys}`;
    onDraft((current) => ({
      ...current,
      placements: [
        ...current.placements,
        { key, versionId, versionName: version.name, transform: transformAt(anchor), landmark: null },
      ],
    }));
    setSelected(key);
    setAdding('');
  };

  const snap = () => {
    const landmark = planeLandmarks.find((entry) => entry.name === snapTo);
    if (!selected || !landmark || !view.current) return;
    const transform: PlacementTransform | null = view.current.snap(selected, landmark);
    if (transform) updatePlacement(selected, { transform, landmark: landmark.name });
  };

  const capture = async () => {
    if (!view.current) return;
    setCapturing(true);
    try {
      await onScreenshot(await view.current.screenshot());
    } finally {
      setCapturing(false);
    }
  };

  const setView = (change: Partial<SceneDraft['view']>) =>
    onDraft((current) => ({ ...current, view: { ...current.view, ...change } }));
  const toggleOrgan = (organ: string) => {
    const next = new Set(hidden);
    if (next.has(organ)) next.delete(organ);
    else next.add(organ);
    setView({ hiddenOrgans: [...next] });
  };
  const selectedPlacement = draft.placements.find((placement) => placement.key === selected) ?? null;

  return (
    <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
      <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
          <ToggleButtonGroup
            exclusive
            size="small"
            aria-label="Phase"
            value={phase}
            onChange={(_event, value: string | null) => value && setView({ phase: value })}
          >
            {staticPhases.map((option) => (
              <ToggleButton key={option} value={option}>
                {phaseTitle(option)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
            {shownPhase === phase ? `Showing ${phaseTitle(phase)}` : `Loading ${phaseTitle(phase)}…`}
          </Typography>
          <Box sx={{ flex: 1 }} />
          <Button
            variant="outlined"
            size="small"
            startIcon={<CameraAltOutlinedIcon />}
            onClick={() => void capture()}
            disabled={capturing || shownPhase !== phase || error !== null}
          >
            Take screenshot
          </Button>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        <Box
          ref={container}
          data-testid="room-scene"
          data-shown-phase={shownPhase ?? ''}
          data-devices={draft.placements.length}
          data-simulated-region={regionPlanes ? 'shown' : 'none'}
          role="img"
          aria-label={`3D scene of the patient's anatomy, ${phaseTitle(phase)}, with ${draft.placements.length} devices. Drag to rotate, scroll to zoom, click a device to select it.`}
          sx={{ height: { xs: 360, md: 540 }, borderRadius: 2, overflow: 'hidden', bgcolor: '#11161c' }}
        />
        <FormGroup row aria-label="Organs">
          {scene.anatomy.organs.map((organ) => (
            <FormControlLabel
              key={organ}
              control={<Checkbox size="small" checked={!hidden.has(organ)} onChange={() => toggleOrgan(organ)} />}
              label={ORGAN_LABELS[organ as keyof typeof ORGAN_LABELS] ?? organ}
            />
          ))}
        </FormGroup>
      </Stack>

      <Paper variant="outlined" sx={{ p: 2, width: { lg: 320 }, flexShrink: 0 }} component="aside" aria-label="Devices">
        <Typography variant="h6" component="h2">
          Devices
        </Typography>
        {draft.placements.length === 0 ? (
          <Typography color="text.secondary" sx={{ my: 1 }}>
            No device placed yet.
          </Typography>
        ) : (
          <List dense aria-label="Placed devices">
            {draft.placements.map((placement, index) => (
              <ListItemButton
                key={placement.key}
                selected={placement.key === selected}
                onClick={() => setSelected(placement.key === selected ? null : placement.key)}
              >
                <ListItemText
                  primary={`${index + 1}. ${placement.versionName}`}
                  secondary={placement.landmark ? `Snapped to ${landmarkLabel(placement.landmark)}` : 'Placed freely'}
                />
              </ListItemButton>
            ))}
          </List>
        )}
        {canEdit && (
          <>
            {scene.versions.length === 0 ? (
              <Alert severity="info" sx={{ mt: 1 }}>
                This project has no processed device version to place yet.
              </Alert>
            ) : (
              <TextField
                select
                fullWidth
                size="small"
                label="Add a device version"
                value={adding}
                onChange={(event) => add(event.target.value)}
                sx={{ mt: 1 }}
              >
                {scene.versions.map((version) => (
                  <MenuItem key={version.id} value={version.id}>
                    {version.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Divider sx={{ my: 2 }} />
            {selectedPlacement ? (
              <Stack spacing={1.5}>
                <Stack direction="row" sx={{ alignItems: 'center' }}>
                  <Typography variant="subtitle2" sx={{ flex: 1 }}>
                    {selectedPlacement.versionName}
                  </Typography>
                  <Tooltip title="Remove from the scene (Delete)">
                    <IconButton size="small" aria-label="Remove the selected device" onClick={removeSelected}>
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </Stack>
                <ToggleButtonGroup
                  exclusive
                  size="small"
                  fullWidth
                  aria-label="Gizmo"
                  value={mode}
                  onChange={(_event, value: GizmoMode | null) => value && setMode(value)}
                >
                  {modes.map((entry) => (
                    <ToggleButton key={entry.mode} value={entry.mode} aria-keyshortcuts={entry.key}>
                      {entry.label} ({entry.key})
                    </ToggleButton>
                  ))}
                </ToggleButtonGroup>
                <TextField
                  select
                  size="small"
                  label="Landmark"
                  value={planeLandmarks.some((entry) => entry.name === snapTo) ? snapTo : ''}
                  onChange={(event) => setSnapTo(event.target.value)}
                  disabled={planeLandmarks.length === 0}
                >
                  {planeLandmarks.map((landmark) => (
                    <MenuItem key={landmark.name} value={landmark.name}>
                      {landmarkLabel(landmark.name)}
                      {landmark.normal ? ' (centre and plane)' : ''}
                    </MenuItem>
                  ))}
                </TextField>
                <Button variant="outlined" onClick={snap} disabled={!planeLandmarks.some((l) => l.name === snapTo)}>
                  Snap to landmark
                </Button>
                <Typography variant="caption" color="text.secondary">
                  Snapping centres the device on the landmark; at an annulus its axis follows the plane’s normal.
                  Position {selectedPlacement.transform.position.map((value) => value.toFixed(1)).join(', ')} mm.
                </Typography>
              </Stack>
            ) : (
              draft.placements.length > 0 && (
                <Typography variant="body2" color="text.secondary">
                  Select a device to move, rotate, scale or snap it.
                </Typography>
              )
            )}
          </>
        )}
        {!canEdit && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            You can look at this room; only the project team’s members and admins change it.
          </Typography>
        )}
      </Paper>
    </Stack>
  );
}
