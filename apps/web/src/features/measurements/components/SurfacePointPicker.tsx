import { Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ORGANS, type Organ } from '@insilico/anatomy';
import { ssmInstancePattern, type PatientLandmarks } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { cohortUrls, LazyAnatomyViewer, ORGAN_LABELS, useCohortPatient, useCohortPatients } from '../../cohorts';
import { useProjects } from '../../projects';
import { ssmUrls, useSsms } from '../../ssm';
import { patientLandmarks, shapeLandmarks } from '../api';
import type { PickedPoint, PickSource } from '../measurementDraft';

const firstPage = { search: '', sort: 'id', order: 'asc', page: 1, pageSize: 25 } as const;
const allProjects = { status: 'all', search: '' } as const;
const organWords = (organ: string) => ORGAN_LABELS[organ as Organ] ?? organ.replaceAll('_', ' ');
const mm = (v: number) => v.toFixed(1);
/** Whether a patient's imaging phases cover a heart phase (cine CT covers both static phases). */
const hasImagesOf = (phases: readonly string[], phase: string) => phases.includes(phase) || phases.includes('cine_ct');

/** Where a point lies, in words: the organ and its coordinates (mm). */
export function pickedWords(p: PickedPoint): string {
  return `${organWords(p.organ)} at (${p.position.map(mm).join(', ')}) mm`;
}

/** What the picker shows points on: the chosen anatomy's 3D view and landmarks, or why it has none. */
interface AnatomyView {
  /** The fields that choose the anatomy. */
  chooser: ReactNode;
  /** Where points picked now are stored (null until an anatomy is chosen). */
  source: PickSource | null;
  /** Shown in place of the view: loading, an error, or why this anatomy cannot be picked on at this phase. */
  notice: ReactNode | null;
  meshUrl: (label: string) => string;
  /** The view's one phase (a patient's) or shape label. */
  label: string;
  organs: readonly string[];
  landmarks: (() => Promise<PatientLandmarks>) | null;
}

/** A patient of the cohort: at first the first one with images of the phase. */
function usePatientView(
  active: boolean,
  deviceId: string,
  cohortId: string,
  phase: string,
  source: PickSource | null,
  choose: (source: PickSource) => void,
): AnatomyView {
  const patients = useCohortPatients(deviceId, cohortId, firstPage, active);
  // At first the first patient with images of the phase (a cohort's patients have one phase or both).
  const items = patients.data?.items;
  const chosen = source && 'patientId' in source ? source.patientId : null;
  const patientId = chosen ?? (items?.find((p) => hasImagesOf(p.phases, phase)) ?? items?.[0])?.id ?? '';
  const patient = useCohortPatient(active && patientId ? deviceId : null, cohortId, patientId);
  const hasPhase = patient.data?.meshes.phases.includes(phase) ?? false;
  const meshUrl = useCallback(
    (p: string) => cohortUrls.mesh(deviceId, cohortId, patientId, p),
    [deviceId, cohortId, patientId],
  );
  const landmarks = useCallback(
    () => patientLandmarks(deviceId, cohortId, patientId, phase),
    [deviceId, cohortId, patientId, phase],
  );
  const chooser = patients.data && (
    <TextField
      select
      label="Patient to pick on"
      value={patientId}
      onChange={(e) => choose({ cohortId, patientId: e.target.value })}
    >
      {patients.data.items.map((p) => (
        <MenuItem key={p.id} value={p.id}>
          {p.id}
        </MenuItem>
      ))}
    </TextField>
  );
  const notice =
    patients.error && !patients.data ? (
      <Alert severity="error">{patients.error.message}</Alert>
    ) : !patients.data || (patientId && !patient.data) ? (
      <Typography color="text.secondary">Loading the patient’s anatomy…</Typography>
    ) : !hasPhase ? (
      <Alert severity="info">
        Patient {patientId} has no {phase} images: choose another patient or another heart phase.
      </Alert>
    ) : null;
  const where = useMemo(() => (patientId ? { cohortId, patientId } : null), [cohortId, patientId]);
  return {
    chooser,
    source: where,
    notice,
    meshUrl,
    label: phase,
    organs: patient.data?.meshes.organs ?? [],
    landmarks: notice === null ? landmarks : null,
  };
}

/** A shape of a shape model of a project of the workspace (issue 18), built at the measurement's phase. */
function useShapeView(
  active: boolean,
  deviceId: string,
  phase: string,
  source: PickSource | null,
  choose: (source: PickSource) => void,
): AnatomyView {
  const chosen = source && 'ssmId' in source ? source : null;
  const [projectId, setProjectId] = useState(chosen?.projectId ?? '');
  const [ssmId, setSsmId] = useState(chosen?.ssmId ?? '');
  const [instance, setInstance] = useState(chosen?.instance ?? 'mean');
  const projects = useProjects(active ? deviceId : null, allProjects);
  const ssms = useSsms(active ? deviceId : null, projectId || null);
  const ready = (ssms.data?.items ?? []).filter((m) => m.status === 'ready');
  const ssm = ready.find((m) => m.id === ssmId);
  const validShape = ssmInstancePattern.test(instance);
  const meshUrl = useCallback(
    (label: string) => ssmUrls.shape(deviceId, projectId, ssmId, label),
    [deviceId, projectId, ssmId],
  );
  const landmarks = useCallback(
    () => shapeLandmarks(deviceId, projectId, ssmId, instance),
    [deviceId, projectId, ssmId, instance],
  );
  const pick = (next: { projectId?: string; ssmId?: string; instance?: string }) => {
    const p = next.projectId ?? projectId;
    const m = next.projectId !== undefined ? '' : (next.ssmId ?? ssmId);
    const i = next.instance ?? instance;
    setProjectId(p);
    setSsmId(m);
    setInstance(i);
    if (p && m && ssmInstancePattern.test(i)) choose({ projectId: p, ssmId: m, instance: i });
  };
  const chooser = (
    <>
      <TextField select label="Project" value={projectId} onChange={(e) => pick({ projectId: e.target.value })}>
        {(projects.data?.items ?? []).map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Shape model"
        value={ssm ? ssmId : ''}
        disabled={ready.length === 0}
        helperText={projectId && ssms.data && ready.length === 0 ? 'This project has no ready shape model.' : undefined}
        onChange={(e) => pick({ ssmId: e.target.value })}
      >
        {ready.map((m) => (
          <MenuItem key={m.id} value={m.id}>
            {m.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Shape"
        value={instance}
        error={!validShape}
        helperText={
          validShape
            ? '“mean”, or standard deviations per mode, e.g. 2,0,-1.5.'
            : 'Name a shape as “mean” or as standard deviations per mode, e.g. 2,0,-1.5.'
        }
        onChange={(e) => pick({ instance: e.target.value.trim() })}
      />
    </>
  );
  const notice =
    projects.error || ssms.error ? (
      <Alert severity="error">{(projects.error ?? ssms.error)?.message}</Alert>
    ) : !ssm || !validShape ? (
      <Typography color="text.secondary">Choose a project, one of its shape models and a shape.</Typography>
    ) : ssm.configuration.phase !== phase ? (
      <Alert severity="info">
        The shape model {ssm.name} is built at {ssm.configuration.phase}: choose another model or another heart phase.
      </Alert>
    ) : null;
  return {
    chooser,
    source: chosen,
    notice,
    meshUrl,
    label: instance,
    organs: ssm?.configuration.organs ?? [],
    landmarks: notice === null ? landmarks : null,
  };
}

/**
 * Points picked on the surface of one anatomy at the measurement's phase (issue 23): a patient of the cohort, or a
 * shape of a project's shape model. A click on an organ in the 3D view places a point; from the keyboard, a point
 * is placed at a named landmark or at typed coordinates. The server checks each lies on the organ's surface and
 * carries it to every patient by the landmarks around it (docs/decisions/measurement-surface-points.md).
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
  /** Points added (or, with another anatomy, cleared). */
  onChange: (picked: PickedPoint[], source: PickSource) => void;
  onRemove: (index: number) => void;
}) {
  const [on, setOn] = useState<'patient' | 'shape'>(source && 'ssmId' in source ? 'shape' : 'patient');
  // Another anatomy clears the points picked so far.
  const choose = useCallback((next: PickSource) => onChange([], next), [onChange]);
  const patientView = usePatientView(on === 'patient', deviceId, cohortId, phase, source, choose);
  const shapeView = useShapeView(on === 'shape', deviceId, phase, source, choose);
  const view = on === 'patient' ? patientView : shapeView;
  // The landmarks of the anatomy shown, with the loader they came from (another anatomy's are not shown).
  const [loaded, setLoaded] = useState<{
    from: () => Promise<PatientLandmarks>;
    landmarks: PatientLandmarks['landmarks'];
  } | null>(null);
  const [organ, setOrgan] = useState<string>('aortic_root');
  const [landmark, setLandmark] = useState('left_coronary_ostium');
  const [typed, setTyped] = useState(['', '', '']);

  const loadLandmarks = view.landmarks;
  useEffect(() => {
    if (!loadLandmarks) return;
    let cancelled = false;
    loadLandmarks()
      .then((answer) => !cancelled && setLoaded({ from: loadLandmarks, landmarks: answer.landmarks }))
      .catch(() => !cancelled && setLoaded({ from: loadLandmarks, landmarks: [] }));
    return () => {
      cancelled = true;
    };
  }, [loadLandmarks]);
  const landmarks = loaded && loaded.from === loadLandmarks ? loaded.landmarks : null;

  const where = view.source;
  const add = useCallback(
    (point: PickedPoint) => where && onChange([...picked, point], where),
    [onChange, picked, where],
  );
  const markers = useMemo(() => picked.map((p) => p.position), [picked]);
  const phases = useMemo(() => [view.label], [view.label]);
  const typedPoint = typed.map((v) => (v.trim() === '' ? Number.NaN : Number(v)));
  const at = landmarks?.find((l) => l.name === landmark);

  return (
    <Stack spacing={1.5} role="group" aria-label="Points picked on the surface">
      <Typography variant="subtitle2" component="h3">
        Points picked on the surface
      </Typography>
      <TextField
        select
        label="Pick on"
        value={on}
        helperText={picked.length > 0 ? 'Another patient or shape clears the picked points.' : undefined}
        onChange={(e) => setOn(e.target.value as 'patient' | 'shape')}
      >
        <MenuItem value="patient">A patient of the cohort</MenuItem>
        <MenuItem value="shape">A shape of a statistical shape model</MenuItem>
      </TextField>
      {view.chooser}
      {view.notice ?? (
        <Suspense fallback={<Typography color="text.secondary">Loading the 3D view…</Typography>}>
          <LazyAnatomyViewer
            key={view.meshUrl(view.label)}
            phases={phases}
            organs={view.organs}
            meshUrl={view.meshUrl}
            onPick={add}
            markers={markers}
          />
        </Suspense>
      )}
      <Typography variant="body2" color="text.secondary">
        Click on an organ to place a point, or place one at a landmark or at coordinates (mm, in the frame of the
        anatomy shown).
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
          disabled={!at || !where}
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
          disabled={!typedPoint.every(Number.isFinite) || !where}
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
