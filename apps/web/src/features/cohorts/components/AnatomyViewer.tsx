import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import type { Organ } from '@insilico/anatomy';
import { AnatomyScene, type SurfacePick } from '../anatomyScene';
import { ORGAN_LABELS, phaseTitle } from '../labels';

export interface AnatomyViewerProps {
  /** Mesh phases of the patient: static phases and cine frames (`cine-01of12` …). */
  phases: readonly string[];
  organs: readonly string[];
  meshUrl: (phase: string) => string;
  /** Surface picking (measurement points): a click on a visible organ answers the organ and point (mm). */
  onPick?: (pick: SurfacePick) => void;
  /** Points shown as markers (patient frame, mm). */
  markers?: readonly (readonly [number, number, number])[];
}

/** Cine frames per second during playback. */
const CINE_FPS = 8;
/** Shown at first: the heart; the thorax can be switched on. */
const THORAX: readonly string[] = ['rib_cage', 'left_lung', 'right_lung'];

/** Whether this browser can render WebGL (headless browsers use a software renderer). */
function hasWebGl(): boolean {
  try {
    return document.createElement('canvas').getContext('webgl2') !== null;
  } catch {
    return false;
  }
}

/**
 * The 3D preview of a patient (three.js, loaded with this module on demand): organ toggles, a phase switch
 * between end-diastole and end-systole, and cine playback through the frames between them.
 */
export function AnatomyViewer({ phases, organs, meshUrl, onPick, markers }: AnatomyViewerProps) {
  const container = useRef<HTMLDivElement>(null);
  const scene = useRef<AnatomyScene | null>(null);
  const staticPhases = useMemo(() => phases.filter((phase) => !phase.startsWith('cine-')), [phases]);
  const cineFrames = useMemo(() => phases.filter((phase) => phase.startsWith('cine-')), [phases]);
  const [phase, setPhase] = useState(staticPhases[0] ?? cineFrames[0] ?? '');
  const [shown, setShown] = useState<string | null>(null);
  const [visible, setVisible] = useState<Set<string>>(() => new Set(organs.filter((o) => !THORAX.includes(o))));
  const [playing, setPlaying] = useState(false);
  const [cineLoaded, setCineLoaded] = useState(0);
  const [error, setError] = useState<string | null>(() =>
    hasWebGl() ? null : 'The 3D preview needs WebGL, which this browser does not offer.',
  );

  useEffect(() => {
    if (!container.current || !hasWebGl()) return;
    scene.current = new AnatomyScene(container.current);
    return () => {
      scene.current?.dispose();
      scene.current = null;
    };
  }, []);

  useEffect(() => {
    const current = scene.current;
    if (!current || !phase) return;
    let cancelled = false;
    current
      .show(phase, meshUrl(phase))
      .then(() => {
        if (!cancelled) setShown(phase);
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : 'The anatomy could not be loaded.');
      });
    return () => {
      cancelled = true;
    };
  }, [phase, meshUrl]);

  useEffect(() => {
    scene.current?.setVisibleOrgans(visible, organs);
  }, [visible, organs, shown]);

  useEffect(() => {
    scene.current?.setPickListener(onPick ? (pick) => pick && onPick(pick) : null);
  }, [onPick]);

  useEffect(() => {
    scene.current?.setMarkers(markers ?? []);
  }, [markers, shown]);

  // Cine: load every frame first, then step through them ED → ES → ED.
  useEffect(() => {
    const current = scene.current;
    if (!playing || !current) return;
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    let loaded = 0;
    void Promise.all(
      cineFrames.map((frame) =>
        current.load(frame, meshUrl(frame)).then(() => {
          loaded += 1;
          if (!cancelled) setCineLoaded(loaded);
        }),
      ),
    )
      .then(() => {
        if (cancelled) return;
        const loop = [...cineFrames, ...[...cineFrames].reverse().slice(1, -1)];
        let i = 0;
        timer = setInterval(() => {
          setPhase(loop[i % loop.length] ?? cineFrames[0] ?? '');
          i += 1;
        }, 1000 / CINE_FPS);
      })
      .catch((caught: unknown) => {
        if (!cancelled) {
          setError(caught instanceof Error ? caught.message : 'The cine frames could not be loaded.');
          setPlaying(false);
        }
      });
    return () => {
      cancelled = true;
      if (timer) clearInterval(timer);
    };
  }, [playing, cineFrames, meshUrl]);

  const toggleOrgan = (organ: string) =>
    setVisible((current) => {
      const next = new Set(current);
      if (next.has(organ)) next.delete(organ);
      else next.add(organ);
      return next;
    });

  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ alignItems: { md: 'center' } }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label="Phase"
          value={playing ? null : phase}
          onChange={(_event, value: string | null) => {
            if (value) {
              setPlaying(false);
              setPhase(value);
            }
          }}
        >
          {staticPhases.map((option) => (
            <ToggleButton key={option} value={option}>
              {phaseTitle(option)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        {cineFrames.length > 0 && (
          <Button
            variant="outlined"
            size="small"
            onClick={() => setPlaying((current) => !current)}
            startIcon={playing ? <PauseIcon aria-hidden="true" /> : <PlayArrowIcon aria-hidden="true" />}
          >
            {playing ? 'Pause cine' : 'Play cine'}
          </Button>
        )}
        <Typography variant="body2" color="text.secondary" role="status" aria-live="polite">
          {playing && cineLoaded < cineFrames.length
            ? `Loading cine frames (${cineLoaded} of ${cineFrames.length})…`
            : shown === phase
              ? `Showing ${phaseTitle(phase)}`
              : `Loading ${phaseTitle(phase)}…`}
        </Typography>
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      <Box
        ref={container}
        data-testid="anatomy-viewer"
        data-shown-phase={shown ?? ''}
        aria-label={`3D preview of the patient's anatomy, ${phaseTitle(phase)}. Drag to rotate, scroll to zoom${
          onPick ? ', click on an organ to place a point' : ''
        }.`}
        role="img"
        sx={{ height: { xs: 320, md: 460 }, borderRadius: 2, overflow: 'hidden', bgcolor: '#11161c' }}
      />
      <FormGroup row aria-label="Organs">
        {organs.map((organ) => (
          <FormControlLabel
            key={organ}
            control={<Checkbox size="small" checked={visible.has(organ)} onChange={() => toggleOrgan(organ)} />}
            label={ORGAN_LABELS[organ as Organ] ?? organ}
          />
        ))}
      </FormGroup>
    </Stack>
  );
}
