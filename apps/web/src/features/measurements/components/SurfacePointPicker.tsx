import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { ORGANS, type Organ } from '@insilico/anatomy';
import type { PatientLandmarks } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { cohortUrls, LazyAnatomyViewer, ORGAN_LABELS, useCohortPatient, useCohortPatients } from '../../cohorts';
import { patientLandmarks } from '../api';
import type { PickedPoint, PickSource } from '../measurementDraft';

const firstPage = { search: '', sort: 'id', order: 'asc', page: 1, pageSize: 25 } as const;
const organWords = (organ: string) => ORGAN_LABELS[organ as Organ] ?? organ.replaceAll('_', ' ');
const mm = (v: number) => v.toFixed(1);
/** Whether a patient's imaging phases cover a heart phase (cine CT covers both static phases). */
const hasImagesOf = (phases: readonly string[], phase: string) => phases.includes(phase) || phases.includes('cine_ct');

/** Where a point lies, in words: the organ and its coordinates (mm). */
export function pickedWords(p: PickedPoint): string {
  return `${organWords(p.organ)} at (${p.position.map(mm).join(', ')}) mm`;
}

/**
 * Points picked on the surface of one patient's anatomy at the measurement's phase (issue 23): a click on an
 * organ in the 3D view places a point; from the keyboard, a point is placed at a named landmark or at typed
 * coordinates. The server checks each lies on the organ's surface and carries it to every patient by the
 * landmarks around it (docs/decisions/measurement-surface-points.md).
 */
export function SurfacePointPicker({
  deviceId,
  cohortId,
  phase,
  picked,
  source,
  onChange,
  onRemove,
}: {
  deviceId: string;
  cohortId: string;
  phase: string;
  picked: readonly PickedPoint[];
  source: PickSource | null;
  /** Points added (or, with another patient, cleared). */
  onChange: (picked: PickedPoint[], source: PickSource) => void;
  onRemove: (index: number) => void;
}) {
  const patients = useCohortPatients(deviceId, cohortId, firstPage, true);
  // At first the first patient with images of the phase (a cohort's patients have one phase or both).
  const items = patients.data?.items;
  const patientId = source?.patientId ?? (items?.find((p) => hasImagesOf(p.phases, phase)) ?? items?.[0])?.id ?? '';
  const patient = useCohortPatient(patientId ? deviceId : null, cohortId, patientId);
  const [landmarks, setLandmarks] = useState<PatientLandmarks['landmarks'] | null>(null);
  const [organ, setOrgan] = useState<string>('aortic_root');
  const [landmark, setLandmark] = useState('left_coronary_ostium');
  const [typed, setTyped] = useState(['', '', '']);
  const hasPhase = patient.data?.meshes.phases.includes(phase) ?? false;

  useEffect(() => {
    if (!patientId || !hasPhase) return;
    let cancelled = false;
    patientLandmarks(deviceId, cohortId, patientId, phase)
      .then((answer) => !cancelled && setLandmarks(answer.landmarks))
      .catch(() => !cancelled && setLandmarks([]));
    return () => {
      cancelled = true;
    };
  }, [deviceId, cohortId, patientId, phase, hasPhase]);

  const add = useCallback(
    (point: PickedPoint) => onChange([...picked, point], { cohortId, patientId }),
    [onChange, picked, cohortId, patientId],
  );
  const meshUrl = useCallback(
    (p: string) => cohortUrls.mesh(deviceId, cohortId, patientId, p),
    [deviceId, cohortId, patientId],
  );
  const markers = useMemo(() => picked.map((p) => p.position), [picked]);
  const phases = useMemo(() => [phase], [phase]);
  const typedPoint = typed.map((v) => (v.trim() === '' ? Number.NaN : Number(v)));
  const at = landmarks?.find((l) => l.name === landmark);

  if (patients.error && !patients.data) return <Alert severity="error">{patients.error.message}</Alert>;
  if (!patients.data || (patientId && !patient.data))
    return <Typography color="text.secondary">Loading the patient’s anatomy…</Typography>;
  return (
    <Stack spacing={1.5} role="group" aria-label="Points picked on the surface">
      <Typography variant="subtitle2" component="h3">
        Points picked on the surface
      </Typography>
      <TextField
        select
        label="Patient to pick on"
        value={patientId}
        helperText={picked.length > 0 ? 'Another patient clears the picked points.' : undefined}
        onChange={(e) => onChange([], { cohortId, patientId: e.target.value })}
      >
        {patients.data.items.map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.id}
          </MenuItem>
        ))}
      </TextField>
      {patient.data && !hasPhase ? (
        <Alert severity="info">
          Patient {patientId} has no {phase} images: choose another patient or another heart phase.
        </Alert>
      ) : (
        patient.data && (
          <Suspense fallback={<Typography color="text.secondary">Loading the 3D view…</Typography>}>
            <LazyAnatomyViewer
              phases={phases}
              organs={patient.data.meshes.organs}
              meshUrl={meshUrl}
              onPick={add}
              markers={markers}
            />
          </Suspense>
        )
      )}
      <Typography variant="body2" color="text.secondary">
        Click on an organ to place a point, or place one at a landmark or at coordinates (mm, patient frame).
      </Typography>
      <TextField select label="Organ of the point" value={organ} onChange={(e) => setOrgan(e.target.value)}>
        {ORGANS.map((o) => (
          <MenuItem key={o} value={o}>
            {organWords(o)}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          select
          label="Landmark"
          value={at ? landmark : ''}
          onChange={(e) => setLandmark(e.target.value)}
          sx={{ flex: 1 }}
        >
          {(landmarks ?? []).map((l) => (
            <MenuItem key={l.name} value={l.name}>
              {l.name.replaceAll('_', ' ')}
            </MenuItem>
          ))}
        </TextField>
        <Button
          disabled={!at}
          onClick={() => at && add({ organ, position: [at.position[0], at.position[1], at.position[2]] })}
        >
          Place at the landmark
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {(['x', 'y', 'z'] as const).map((axis, i) => (
          <TextField
            key={axis}
            label={`${axis} (mm)`}
            value={typed[i]}
            onChange={(e) => setTyped((t) => t.map((v, j) => (j === i ? e.target.value : v)))}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            sx={{ width: 90 }}
          />
        ))}
        <Button
          disabled={!typedPoint.every(Number.isFinite)}
          onClick={() => add({ organ, position: typedPoint as [number, number, number] })}
        >
          Add the point
        </Button>
      </Stack>
      {picked.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No point picked yet.
        </Typography>
      ) : (
        <Stack component="ol" sx={{ pl: 2, m: 0 }}>
          {picked.map((p, i) => (
            <Stack
              component="li"
              key={`${i}-${p.position.join()}`}
              direction="row"
              sx={{ alignItems: 'center', justifyContent: 'space-between' }}
            >
              <Typography variant="body2">
                Picked point {i + 1}: {pickedWords(p)}
              </Typography>
              <IconButton size="small" aria-label={`Remove picked point ${i + 1}`} onClick={() => onRemove(i)}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </Stack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
