import { useState } from 'react';
import { LANDMARKS, ORGANS } from '@insilico/anatomy';
import { measurementPhases, sectionQuantities, type MeasurementDefinitionView } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/apiError';
import { createDefinition, reviseDefinition } from '../api';
import {
  draftOf,
  geometryOf,
  initialDraft,
  offsetOf,
  PLANE_LANDMARKS,
  pickedValue,
  planeWords,
  pointWords,
  THREE_POINTS,
  TYPES,
  usesOffset,
  usesPlanePoints,
  withoutPicked,
  type Draft,
  type DraftType,
} from '../measurementDraft';
import { SurfacePointPicker } from './SurfacePointPicker';

const words = (name: string) => name.replaceAll('_', ' ').replaceAll('-', ' ');

function Select({
  label,
  value,
  options,
  onChange,
  wordsOf = words,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  wordsOf?: (option: string) => string;
}) {
  return (
    <TextField select label={label} value={value} onChange={(e) => onChange(e.target.value)} fullWidth>
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {wordsOf(o)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The new-measurement drawer (spec §2): a definition on the anatomy's landmarks or on points picked on the surface
 * of a patient of `cohortId` (3D view, or a landmark or coordinates from the keyboard), saved to the workspace. With
 * `editing`, the drawer edits that definition: saving makes its next version (orders keep the version they used).
 */
export function NewMeasurementDrawer({
  deviceId,
  cohortId = null,
  open,
  editing = null,
  onClose,
  onCreated,
}: {
  deviceId: string;
  /** The cohort whose patients points can be picked on (none: landmarks only). */
  cohortId?: string | null;
  open: boolean;
  editing?: MeasurementDefinitionView | null;
  onClose: () => void;
  onCreated: (definition: MeasurementDefinitionView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => (editing ? (draftOf(editing) ?? initialDraft) : initialDraft));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const body = {
        name: draft.name,
        description: draft.description,
        phase: draft.phase,
        geometry: geometryOf(draft),
      };
      const created = editing
        ? await reviseDefinition(deviceId, editing.lineageId, body)
        : await createDefinition(deviceId, body);
      setDraft(initialDraft);
      onCreated(created);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The measurement could not be saved.');
    } finally {
      setSaving(false);
    }
  };
  const t = draft.type;
  const points = [...LANDMARKS, ...draft.picked.map((_, i) => pickedValue(i + 1))];
  const pickOn = (draft.source && 'cohortId' in draft.source ? draft.source.cohortId : null) ?? cohortId;
  const throughPoints = usesPlanePoints(draft);
  const offset = offsetOf(draft);
  const offsetProblem = usesOffset(draft) && 'problem' in offset ? offset.problem : null;
  const usesPoints = t === 'distance' || t === 'angle' || t === 'height' || t === 'curve-length' || throughPoints;
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Stack
        spacing={2}
        sx={{ p: 3, width: { xs: '100vw', sm: 520 } }}
        component="form"
        aria-label={editing ? 'Edit measurement' : 'New measurement'}
      >
        <Typography variant="h2">{editing ? `Edit ${editing.name}` : 'New measurement'}</Typography>
        {editing && (
          <Typography variant="body2" color="text.secondary">
            Saving makes version {editing.version + 1}; orders keep the version they were measured with.
          </Typography>
        )}
        <TextField label="Name" value={draft.name} onChange={(e) => set({ name: e.target.value })} required />
        <TextField
          label="Description"
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
          multiline
          minRows={2}
        />
        <Select
          label="Heart phase"
          value={draft.phase}
          options={measurementPhases}
          onChange={(v) => set({ phase: v as Draft['phase'] })}
        />
        <TextField select label="Type" value={t} onChange={(e) => set({ type: e.target.value as DraftType })}>
          {(Object.keys(TYPES) as DraftType[]).map((k) => (
            <MenuItem key={k} value={k}>
              {TYPES[k]}
            </MenuItem>
          ))}
        </TextField>
        {(t === 'distance' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'Vertex' : 'From'}
            value={draft.a}
            options={points}
            wordsOf={pointWords}
            onChange={(a) => set({ a })}
          />
        )}
        {(t === 'distance' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'First arm' : 'To'}
            value={draft.b}
            options={points}
            wordsOf={pointWords}
            onChange={(b) => set({ b })}
          />
        )}
        {(t === 'height' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'Second arm' : 'Landmark'}
            value={draft.c}
            options={points}
            wordsOf={pointWords}
            onChange={(c) => set({ c })}
          />
        )}
        {(t === 'height' || t === 'section' || t === 'plane-angle') && (
          <Select
            label="Plane"
            value={draft.plane}
            options={[...PLANE_LANDMARKS, THREE_POINTS]}
            wordsOf={planeWords}
            onChange={(plane) => set({ plane })}
          />
        )}
        {throughPoints &&
          draft.planePoints.map((value, k) => (
            <Select
              key={k}
              label={`Plane point ${k + 1}`}
              value={value}
              options={points}
              wordsOf={pointWords}
              onChange={(v) =>
                set({ planePoints: draft.planePoints.map((p, j) => (j === k ? v : p)) as Draft['planePoints'] })
              }
            />
          ))}
        {throughPoints && (
          <Typography variant="body2" color="text.secondary">
            The plane is computed on each patient through the three points there; points within 2 mm of one line do not
            define one.
          </Typography>
        )}
        {usesOffset(draft) && (
          <TextField
            label="Plane offset (mm)"
            value={draft.offset}
            onChange={(e) => set({ offset: e.target.value })}
            error={offsetProblem !== null}
            helperText={
              offsetProblem ??
              (throughPoints
                ? 'Moves the plane along its normal: positive towards the side from which points 1, 2, 3 turn anticlockwise.'
                : 'Moves the plane along the landmark’s normal; empty for none.')
            }
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        )}
        {(t === 'section' || t === 'volume') && (
          <Select label="Organ" value={draft.organ} options={ORGANS} onChange={(organ) => set({ organ })} />
        )}
        {t === 'section' && (
          <Select
            label="Quantity"
            value={draft.quantity}
            options={sectionQuantities}
            onChange={(v) => set({ quantity: v as Draft['quantity'] })}
          />
        )}
        {t === 'curve-length' && (
          <TextField
            select
            label="Points in order"
            value={draft.curve}
            onChange={(e) => set({ curve: e.target.value as unknown as string[] })}
            slotProps={{ select: { multiple: true, renderValue: (v) => (v as string[]).map(pointWords).join(', ') } }}
          >
            {points.map((o) => (
              <MenuItem key={o} value={o}>
                {pointWords(o)}
              </MenuItem>
            ))}
          </TextField>
        )}
        {usesPoints && pickOn && (
          <SurfacePointPicker
            deviceId={deviceId}
            cohortId={pickOn}
            phase={draft.phase}
            picked={draft.picked}
            source={draft.source}
            onChange={(picked, source) =>
              setDraft((d) => {
                // Another patient: the points picked so far go, and the fields that chose them.
                let next = d;
                if (picked.length === 0) for (let i = d.picked.length - 1; i >= 0; i--) next = withoutPicked(next, i);
                return { ...next, picked, source };
              })
            }
            onRemove={(i) => setDraft((d) => withoutPicked(d, i))}
          />
        )}
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={saving || draft.name.trim() === '' || offsetProblem !== null}
          >
            Save measurement
          </Button>
        </Stack>
      </Stack>
    </Drawer>
  );
}
