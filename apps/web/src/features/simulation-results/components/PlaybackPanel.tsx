import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { outputLabel, outputLabelWithUnit } from '@insilico/sph/outputLabels';
import type { SimulationResults } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PauseIcon from '@mui/icons-material/Pause';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Loading } from '../../../components/LoadState';
import { columnsUrl, fetchAhead, fetchColumns } from '../api';
import { heatColor } from '../heatmapImage';
import {
  countAt,
  fillTemplate,
  finiteRange,
  runRange,
  interleavePositions,
  scalarValues,
  valueOutputs,
  type ColumnValues,
  type ResultManifest,
} from '../resultData';
import type { ClipAxis, ObjectFrame } from '../resultScene';

const loadResultViewer = () => import('./ResultViewer');
const ResultViewer = lazy(() => loadResultViewer().then((module) => ({ default: module.ResultViewer })));

/** Starts fetching the 3D view's chunk (three.js) before the results arrive, so it loads while the page waits. */
export function preloadPlayback(): void {
  void loadResultViewer().catch(() => undefined);
}

/** The output the playback colours by at first: the first value output of any object. */
function firstOutput(manifest: ResultManifest): string {
  return manifest.objects.flatMap(valueOutputs)[0] ?? '';
}

/** The columns the playback asks for of one object's frame at timestep `t`: ids, positions and the coloured output. */
function playbackRequest(
  manifest: ResultManifest,
  frameUrlTemplate: string,
  object: ResultManifest['objects'][number],
  t: number,
  output: string,
): { url: string; names: string[] } {
  return {
    url: fillTemplate(frameUrlTemplate, { object: object.name, timestep: t }),
    names: ['particle_id', 'position', ...(object.columns.some((c) => c.name === output) ? [output] : [])],
  };
}

/**
 * Asks for the playback's first frame of every object now (`fetchAhead`): the results page calls it when the results
 * arrive, so the frames travel while the page renders; the panel's first load takes them.
 */
export function prefetchPlayback({
  manifest,
  frameUrlTemplate,
}: Pick<SimulationResults, 'manifest' | 'frameUrlTemplate'>) {
  const output = firstOutput(manifest);
  for (const object of manifest.objects) {
    const { url, names } = playbackRequest(manifest, frameUrlTemplate, object, 0, output);
    fetchAhead(columnsUrl(url, names));
  }
}

/** Frames kept in memory for playback (a 100k-particle frame with one output is 2 MB). */
const cachedFrames = 48;
const noFrames: ReadonlyMap<string, ObjectFrame> = new Map();
/** Milliseconds per timestep while playing (a frame not loaded yet holds the playback). */
export const playbackStepMs = 400;

export interface PlaybackPanelProps {
  manifest: ResultManifest;
  frameUrlTemplate: string;
  /** Per object and output the range over the whole run (the colour bar's); null: the shown timestep's range. */
  ranges: SimulationResults['ranges'];
  /** Particles on the line-graph card (`object:id`), highlighted. */
  picked: readonly string[];
  onPick: (object: string, particle: number) => void;
  /** Null where the caller may not keep screenshots. */
  onScreenshot: ((png: Blob) => Promise<void>) | null;
}

/**
 * 3D playback of a result (issue 16 item 5): the particles of every object coloured by an output with its colour bar
 * in the §9 unit, the timestep slider (1 to the saved timesteps), play/pause, object visibility, a clip plane, and
 * screenshots. Each timestep fetches only the ids, positions and the coloured output of each object.
 */
export function PlaybackPanel({
  manifest,
  frameUrlTemplate,
  ranges,
  picked,
  onPick,
  onScreenshot,
}: PlaybackPanelProps) {
  const steps = manifest.timesteps.length;
  const outputs = useMemo(() => [...new Set(manifest.objects.flatMap(valueOutputs))], [manifest]);
  const [output, setOutput] = useState<string>(() => firstOutput(manifest));
  const [timestep, setTimestep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [clip, setClip] = useState<{ axis: ClipAxis | null; fraction: number }>({ axis: null, fraction: 0.5 });
  const [shown, setShown] = useState<{ timestep: number; frames: Map<string, ObjectFrame> } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shooting, setShooting] = useState(false);
  const screenshot = useRef<(() => Promise<Blob>) | null>(null);
  const cache = useRef(new Map<string, Promise<Record<string, ColumnValues>>>());
  const step = Math.min(timestep, Math.max(0, steps - 1));

  const load = useCallback(
    (t: number, object: ResultManifest['objects'][number]) => {
      const { url, names } = playbackRequest(manifest, frameUrlTemplate, object, t, output);
      const key = `${url}?${names.join(',')}`;
      let loading = cache.current.get(key);
      if (!loading) {
        loading = fetchColumns(url, object, countAt(manifest, object, t), names);
        loading.catch(() => cache.current.delete(key));
        cache.current.set(key, loading);
        if (cache.current.size > cachedFrames) cache.current.delete(cache.current.keys().next().value!);
      }
      return loading;
    },
    [frameUrlTemplate, manifest, output],
  );

  useEffect(() => {
    let current = true;
    Promise.all(
      manifest.objects.map(async (object) => {
        const columns = await load(step, object);
        const count = countAt(manifest, object, step);
        const column = object.columns.find((c) => c.name === output);
        const frame: ObjectFrame = {
          positions: interleavePositions(columns.position!, count),
          ids: columns.particle_id as Int32Array,
          values: column && columns[output] ? scalarValues(columns[output], column.components, count) : null,
        };
        return [object.name, frame] as const;
      }),
    ).then(
      (entries) => {
        if (!current) return;
        setShown({ timestep: step, frames: new Map(entries) });
        setError(null);
      },
      (caught: unknown) => {
        if (!current) return;
        setPlaying(false);
        setError(caught instanceof Error ? caught.message : String(caught));
      },
    );
    return () => {
      current = false;
    };
  }, [manifest, load, step, output]);

  // Playing advances a timestep once the shown frame is the current one, so a slow network never skips frames.
  useEffect(() => {
    if (!playing || shown?.timestep !== step) return;
    const timer = setTimeout(() => setTimestep(step + 1 >= steps ? 0 : step + 1), playbackStepMs);
    return () => clearTimeout(timer);
  }, [playing, shown, step, steps]);

  // The range over the whole run, so a colour means the same value at every timestep of the playback.
  const range = useMemo(() => {
    const overRun = runRange(ranges, output);
    if (overRun) return overRun;
    const all: number[] = [];
    for (const frame of shown?.frames.values() ?? []) if (frame.values) for (const v of frame.values) all.push(v);
    return finiteRange(all);
  }, [ranges, output, shown]);
  const onReady = useCallback((fn: (() => Promise<Blob>) | null) => {
    screenshot.current = fn;
  }, []);
  const takeScreenshot = async () => {
    if (!screenshot.current || !onScreenshot) return;
    setShooting(true);
    try {
      await onScreenshot(await screenshot.current());
    } finally {
      setShooting(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="3D playback">
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Playback
          </Typography>
          <TextField
            select
            size="small"
            label="Colour by"
            value={output}
            onChange={(event) => setOutput(event.target.value)}
            sx={{ minWidth: 200 }}
          >
            {outputs.map((name) => (
              <MenuItem key={name} value={name}>
                {outputLabel(name)}
              </MenuItem>
            ))}
          </TextField>
          {onScreenshot && (
            <Button
              variant="outlined"
              startIcon={<PhotoCameraOutlinedIcon aria-hidden="true" />}
              onClick={() => void takeScreenshot()}
              disabled={shooting || !shown}
            >
              Screenshot
            </Button>
          )}
        </Stack>
        {error && <Alert severity="error">The timestep could not be loaded. {error}</Alert>}
        <Box sx={{ position: 'relative' }}>
          <Suspense fallback={<Loading what="the 3D view" />}>
            <ResultViewer
              frames={shown?.frames ?? noFrames}
              range={range}
              hidden={hidden}
              clip={clip}
              picked={picked}
              onPick={onPick}
              onReady={onReady}
            />
          </Suspense>
          {output && <ColourBar output={output} range={range} />}
        </Box>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <IconButton
            onClick={() => setPlaying((p) => !p)}
            aria-label={playing ? 'Pause' : 'Play'}
            disabled={steps < 2}
            color="primary"
          >
            {playing ? <PauseIcon /> : <PlayArrowIcon />}
          </IconButton>
          <Slider
            aria-label="Playback timestep"
            min={1}
            max={Math.max(1, steps)}
            step={1}
            value={step + 1}
            valueLabelDisplay="auto"
            onChange={(_event, value) => setTimestep(value - 1)}
            disabled={steps < 2}
            sx={{ flex: 1 }}
          />
          <Typography variant="body2" sx={{ minWidth: 170, fontVariantNumeric: 'tabular-nums' }}>
            Timestep {step + 1} of {steps} · {formatMs(manifest.timesteps[step]?.time ?? 0)}
          </Typography>
        </Stack>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <Stack direction="row" sx={{ flexWrap: 'wrap' }} role="group" aria-label="Objects shown">
            {manifest.objects.map((object) => (
              <FormControlLabel
                key={object.name}
                label={object.name}
                control={
                  <Checkbox
                    checked={!hidden.has(object.name)}
                    onChange={(event) =>
                      setHidden((current) => {
                        const next = new Set(current);
                        if (event.target.checked) next.delete(object.name);
                        else next.add(object.name);
                        return next;
                      })
                    }
                  />
                }
              />
            ))}
          </Stack>
          <TextField
            select
            size="small"
            label="Clip plane"
            value={clip.axis ?? 'none'}
            onChange={(event) =>
              setClip((c) => ({ ...c, axis: event.target.value === 'none' ? null : (event.target.value as ClipAxis) }))
            }
            sx={{ minWidth: 150 }}
          >
            <MenuItem value="none">None</MenuItem>
            <MenuItem value="x">Across x (left–right)</MenuItem>
            <MenuItem value="y">Across y (front–back)</MenuItem>
            <MenuItem value="z">Across z (up–down)</MenuItem>
          </TextField>
          <Slider
            aria-label="Clip plane position"
            min={0}
            max={1}
            step={0.01}
            value={clip.fraction}
            disabled={clip.axis === null}
            onChange={(_event, value) => setClip((c) => ({ ...c, fraction: value }))}
            sx={{ maxWidth: 240 }}
          />
        </Stack>
      </Stack>
    </Paper>
  );
}

function formatMs(seconds: number): string {
  return `t = ${Number((seconds * 1000).toPrecision(4))} ms`;
}

/** The colour bar: the viridis scale from the minimum to the maximum over the run (else the shown timestep), labelled with the output and its unit. */
function ColourBar({ output, range }: { output: string; range: { min: number; max: number } }) {
  const gradient = useMemo(
    () =>
      `linear-gradient(to top, ${[0, 0.25, 0.5, 0.75, 1]
        .map((t) => `rgb(${heatColor(t).map(Math.round).join(',')}) ${t * 100}%`)
        .join(', ')})`,
    [],
  );
  return (
    <Stack
      aria-label={`Colour bar: ${outputLabelWithUnit(output)} from ${format(range.min)} to ${format(range.max)}`}
      role="figure"
      spacing={0.5}
      sx={{
        position: 'absolute',
        right: 12,
        top: 12,
        p: 1,
        borderRadius: 1,
        bgcolor: 'rgba(17,22,28,0.75)',
        color: '#fff',
        alignItems: 'center',
      }}
    >
      <Typography variant="caption">{outputLabelWithUnit(output)}</Typography>
      <Typography variant="caption">{format(range.max)}</Typography>
      <Box sx={{ width: 14, height: 160, background: gradient, borderRadius: 0.5 }} />
      <Typography variant="caption">{format(range.min)}</Typography>
    </Stack>
  );
}

function format(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
