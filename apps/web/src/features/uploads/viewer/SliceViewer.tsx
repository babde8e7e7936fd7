import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { windowValue } from '@insilico/dicom';
import { loadSeries, openDatasetZip, type LoadedSeries, type ZipSeries } from './seriesLoader';
import { ctWindowPresets, planeGeometry, sliceValues, type Plane, type Volume } from './volume';

const planes: Plane[] = ['axial', 'coronal', 'sagittal'];
const planeLabels: Record<Plane, string> = { axial: 'Axial', coronal: 'Coronal', sagittal: 'Sagittal' };

/** One plane of the volume on a canvas, its slice chosen with a slider (arrow keys move one slice). */
function PlaneView({
  volume,
  plane,
  window,
}: {
  volume: Volume;
  plane: Plane;
  window: { center: number; width: number };
}) {
  const geometry = planeGeometry(volume, plane);
  const [index, setIndex] = useState(Math.floor(geometry.count / 2));
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const values = sliceValues(volume, plane, index);
    const image = context.createImageData(geometry.width, geometry.height);
    values.forEach((value, i) => {
      const grey = windowValue(value, window.center, window.width);
      image.data.set([grey, grey, grey, 255], i * 4);
    });
    context.putImageData(image, 0, 0);
  }, [volume, plane, index, window, geometry.width, geometry.height]);
  const displayWidth = 256;
  const displayHeight = Math.round((displayWidth * geometry.height * geometry.aspect) / geometry.width);
  return (
    <Paper variant="outlined" sx={{ p: 1.5, width: displayWidth + 24 }}>
      <Typography variant="subtitle2">
        {planeLabels[plane]} · slice {index + 1} of {geometry.count}
      </Typography>
      <Box sx={{ bgcolor: 'black', my: 1 }}>
        <canvas
          ref={canvas}
          width={geometry.width}
          height={geometry.height}
          style={{ width: displayWidth, height: displayHeight, display: 'block', imageRendering: 'pixelated' }}
          role="img"
          aria-label={`${planeLabels[plane]} slice ${index + 1}`}
          data-testid={`slice-${plane}`}
        />
      </Box>
      <Slider
        size="small"
        min={0}
        max={Math.max(0, geometry.count - 1)}
        value={index}
        onChange={(_e, value) => setIndex(value)}
        aria-label={`${planeLabels[plane]} slice`}
        disabled={geometry.count < 2}
      />
    </Paper>
  );
}

/**
 * The slice viewer of an uploaded dataset (issue 19 item 8): the series of its zip, read from the server by byte
 * ranges, one at a time, shown axial, coronal and sagittal with window/level presets for CT.
 */
export function SliceViewer({ url }: { url: string }) {
  const [series, setSeries] = useState<ZipSeries[] | null>(null);
  const [chosen, setChosen] = useState(0);
  // Both keyed by the series' folder: what belongs to another series is not shown.
  const [loadedFor, setLoaded] = useState<{ folder: string; series: LoadedSeries } | null>(null);
  const [progressFor, setProgress] = useState<{ folder: string; done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preset, setPreset] = useState<string>('file');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    let close: (() => Promise<void>) | null = null;
    openDatasetZip(url).then(
      (opened) => {
        close = opened.close;
        if (live) setSeries(opened.series);
      },
      (caught: unknown) =>
        live && setError(caught instanceof Error ? caught.message : 'The dataset could not be read.'),
    );
    return () => {
      live = false;
      void close?.();
    };
  }, [url, attempt]);

  const current = series?.[chosen] ?? null;
  useEffect(() => {
    if (!current) return;
    let live = true;
    const folder = current.folder;
    loadSeries(current, (done, total) => live && setProgress({ folder, done, total })).then(
      (result) => live && setLoaded({ folder, series: result }),
      (caught: unknown) => live && setError(caught instanceof Error ? caught.message : 'The series could not be read.'),
    );
    return () => {
      live = false;
    };
  }, [current]);

  const loaded = loadedFor && loadedFor.folder === current?.folder ? loadedFor.series : null;
  const progress =
    progressFor && progressFor.folder === current?.folder
      ? progressFor
      : { done: 0, total: current?.entries.length ?? 0 };
  const isCt = loaded?.modality === 'CT';
  const window = useMemo(() => {
    const found = ctWindowPresets.find((p) => p.name === preset);
    return found ?? loaded?.volume.window ?? { center: 0, width: 1 };
  }, [preset, loaded]);

  if (error)
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            onClick={() => {
              setError(null);
              setSeries(null);
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </Button>
        }
      >
        {error}
      </Alert>
    );
  if (!series) return <LinearProgress aria-label="Opening the dataset" />;
  if (series.length === 0) return <Alert severity="info">The dataset has no series to show.</Alert>;
  return (
    <Stack spacing={2} data-testid="slice-viewer">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label="Series"
          value={chosen}
          onChange={(e) => {
            setChosen(Number(e.target.value));
            setPreset('file');
          }}
          sx={{ minWidth: 280 }}
        >
          {series.map((s, i) => (
            <MenuItem key={s.folder} value={i}>
              Series {i + 1} · {s.entries.length} {s.entries.length === 1 ? 'file' : 'files'}
            </MenuItem>
          ))}
        </TextField>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={preset}
          onChange={(_e, value: string | null) => value && setPreset(value)}
          aria-label="Window"
        >
          <ToggleButton value="file">Default</ToggleButton>
          {isCt &&
            ctWindowPresets.map((p) => (
              <ToggleButton key={p.name} value={p.name}>
                {p.name}
              </ToggleButton>
            ))}
        </ToggleButtonGroup>
      </Stack>
      {!loaded ? (
        <Box aria-live="polite">
          <LinearProgress
            variant={progress.total > 0 ? 'determinate' : 'indeterminate'}
            value={progress.total > 0 ? (100 * progress.done) / progress.total : undefined}
          />
          <Typography variant="body2" color="text.secondary">
            Reading image {progress.done} of {progress.total}
          </Typography>
        </Box>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            {loaded.description || 'Series without description'} · {loaded.modality} · {loaded.volume.slices} images ·
            window {Math.round(window.center)}/{Math.round(window.width)}
            {loaded.skipped > 0 ? ` · ${loaded.skipped} compressed images cannot be shown` : ''}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
            {planes.map((plane) => (
              <PlaneView key={`${chosen}-${plane}`} volume={loaded.volume} plane={plane} window={window} />
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
