import { useState } from 'react';
import { LANDMARKS, ORGANS } from '@insilico/anatomy';
import {
  measurementPhases,
  sectionQuantities,
  type MeasurementDefinitionView,
  type MeasurementGeometryBody,
} from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/apiError';
import { createDefinition } from '../api';

/** Landmarks that carry a plane (annuli and the aortic root's levels, the LV base). */
const PLANE_LANDMARKS = LANDMARKS.filter((n) => !/(_sinus|_ostium|^lv_apex)/.test(n));
const words = (name: string) => name.replaceAll('_', ' ').replaceAll('-', ' ');

const TYPES = {
  distance: 'Distance between two landmarks',
  height: 'Height of a landmark above a plane',
  section: 'Section of an organ in a landmark plane',
  angle: 'Angle at a landmark',
  'plane-angle': 'Angle between a landmark plane and the axial plane',
  'curve-length': 'Curve length through landmarks',
  volume: 'Enclosed volume of an organ',
} as const;
type Type = keyof typeof TYPES;

interface Draft {
  name: string;
  description: string;
  phase: (typeof measurementPhases)[number];
  type: Type;
  a: string;
  b: string;
  c: string;
  plane: string;
  organ: string;
  quantity: (typeof sectionQuantities)[number];
  curve: string[];
}

const initial: Draft = {
  name: '',
  description: '',
  phase: 'end-systole',
  type: 'section',
  a: 'aortic_annulus',
  b: 'lv_apex',
  c: 'left_coronary_ostium',
  plane: 'aortic_annulus',
  organ: 'aortic_root',
  quantity: 'area',
  curve: ['lvot', 'aortic_annulus', 'sinotubular_junction', 'ascending_aorta'],
};

/** The geometry the draft describes. */
export function geometryOf(d: Draft): MeasurementGeometryBody {
  const plane = { kind: 'landmark' as const, landmark: d.plane };
  switch (d.type) {
    case 'distance':
      return { type: 'distance', from: { landmark: d.a }, to: { landmark: d.b } };
    case 'height':
      return { type: 'height', point: { landmark: d.c }, plane };
    case 'section':
      return { type: 'section', organ: d.organ, plane, quantity: d.quantity };
    case 'angle':
      return { type: 'angle', vertex: { landmark: d.a }, from: { landmark: d.b }, to: { landmark: d.c } };
    case 'plane-angle':
      return { type: 'plane-angle', planes: [plane, { kind: 'body', plane: 'axial' }] };
    case 'curve-length':
      return { type: 'curve-length', points: d.curve.map((landmark) => ({ landmark })) };
    case 'volume':
      return { type: 'volume', organ: d.organ };
  }
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  return (
    <TextField select label={label} value={value} onChange={(e) => onChange(e.target.value)} fullWidth>
      {options.map((o) => (
        <MenuItem key={o} value={o}>
          {words(o)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The new-measurement drawer (spec §2): a definition on the anatomy's landmarks, saved to the workspace. */
export function NewMeasurementDrawer({
  deviceId,
  open,
  onClose,
  onCreated,
}: {
  deviceId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (definition: MeasurementDefinitionView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const created = await createDefinition(deviceId, {
        name: draft.name,
        description: draft.description,
        phase: draft.phase,
        geometry: geometryOf(draft),
      });
      setDraft(initial);
      onCreated(created);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The measurement could not be saved.');
    } finally {
      setSaving(false);
    }
  };
  const t = draft.type;
  return (
    <Drawer anchor="right" open={open} onClose={onClose}>
      <Stack spacing={2} sx={{ p: 3, width: { xs: '100vw', sm: 440 } }} component="form" aria-label="New measurement">
        <Typography variant="h2">New measurement</Typography>
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
        <TextField select label="Type" value={t} onChange={(e) => set({ type: e.target.value as Type })}>
          {(Object.keys(TYPES) as Type[]).map((k) => (
            <MenuItem key={k} value={k}>
              {TYPES[k]}
            </MenuItem>
          ))}
        </TextField>
        {(t === 'distance' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'Vertex' : 'From'}
            value={draft.a}
            options={LANDMARKS}
            onChange={(a) => set({ a })}
          />
        )}
        {(t === 'distance' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'First arm' : 'To'}
            value={draft.b}
            options={LANDMARKS}
            onChange={(b) => set({ b })}
          />
        )}
        {(t === 'height' || t === 'angle') && (
          <Select
            label={t === 'angle' ? 'Second arm' : 'Landmark'}
            value={draft.c}
            options={LANDMARKS}
            onChange={(c) => set({ c })}
          />
        )}
        {(t === 'height' || t === 'section' || t === 'plane-angle') && (
          <Select label="Plane" value={draft.plane} options={PLANE_LANDMARKS} onChange={(plane) => set({ plane })} />
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
            label="Landmarks in order"
            value={draft.curve}
            onChange={(e) => set({ curve: e.target.value as unknown as string[] })}
            slotProps={{ select: { multiple: true } }}
          >
            {LANDMARKS.map((o) => (
              <MenuItem key={o} value={o}>
                {words(o)}
              </MenuItem>
            ))}
          </TextField>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="contained" onClick={() => void save()} disabled={saving || draft.name.trim() === ''}>
            Save measurement
          </Button>
        </Stack>
      </Stack>
    </Drawer>
  );
}
