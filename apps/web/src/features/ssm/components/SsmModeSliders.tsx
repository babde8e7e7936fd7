import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { ssmMaxDeviation, type SsmMode } from '@insilico/contracts';
import { useSsm } from '../api';

/** Sliders for the first modes (the rest hold little variance and stay at the mean). */
export const SLIDER_MODES = 6;

/** A shape's label as the API names it: `mean`, or SDs per mode with trailing zeros dropped. */
export function shapeLabel(deviations: readonly number[]): string {
  let last = deviations.length;
  while (last > 0 && deviations[last - 1] === 0) last -= 1;
  return last === 0 ? 'mean' : deviations.slice(0, last).join(',');
}

/**
 * The deviations of a shape's label, one per slider (`mean` or an unreadable label: all zero; modes beyond the
 * sliders are not kept, the label's own modes past them being zero for the shapes the sliders make).
 */
export function deviationsOf(label: string | null, sliders: number): number[] {
  const values = label && label !== 'mean' ? label.split(',').map(Number) : [];
  return Array.from({ length: sliders }, (_, k) => {
    const value = values[k] ?? 0;
    return Number.isFinite(value) && Math.abs(value) <= ssmMaxDeviation ? value : 0;
  });
}

/** One slider per mode (±3 SD in half steps), each named with its share of the variance and its value. */
export function SsmModeSliders({
  modes,
  deviations,
  onChange,
  onCommit,
  idPrefix,
}: {
  modes: readonly SsmMode[];
  deviations: readonly number[];
  onChange: (next: number[]) => void;
  /** A value let go of (end of a drag, each key press): what loads a new shape from the server, if anything. */
  onCommit?: (next: number[]) => void;
  idPrefix: string;
}) {
  const changed = (k: number, value: number) => deviations.map((v, i) => (i === k ? value : v));
  return (
    <>
      {deviations.map((value, k) => (
        <Box key={k} sx={{ mb: 1 }}>
          <Typography id={`${idPrefix}-${k + 1}`} variant="body2">
            Mode {k + 1} ({((modes[k]?.explained ?? 0) * 100).toFixed(1)} % of the variance): {value > 0 ? '+' : ''}
            {value} SD
          </Typography>
          <Slider
            aria-labelledby={`${idPrefix}-${k + 1}`}
            value={value}
            min={-ssmMaxDeviation}
            max={ssmMaxDeviation}
            step={0.5}
            marks
            onChange={(_event, next) => onChange(changed(k, next))}
            onChangeCommitted={(_event, next) => onCommit?.(changed(k, next))}
          />
        </Box>
      ))}
    </>
  );
}

/**
 * A room on an SSM (issue 18 item 6): the shape it shows moved along the first modes. Each value let go of shows that
 * shape in the room (its view's shape, saved with the room, so a saved room is a named instance of the model).
 */
export function SsmRoomShape({
  deviceId,
  projectId,
  ssmId,
  shape,
  onShape,
}: {
  deviceId: string;
  projectId: string;
  ssmId: string;
  /** The room's shape label (`mean`, `2,0,-1`). */
  shape: string | null;
  onShape: (label: string) => void;
}) {
  const ssm = useSsm(deviceId, projectId, ssmId);
  const modes = ssm.data?.modes ?? [];
  const sliders = Math.min(SLIDER_MODES, modes.length);
  // The sliders show the room's shape, or the values of a drag under way until it is let go of.
  const [moving, setMoving] = useState<number[] | null>(null);
  const deviations = moving ?? deviationsOf(shape, sliders);
  const commit = (next: number[]) => {
    setMoving(null);
    const label = shapeLabel(next);
    if (label !== (shape ?? 'mean')) onShape(label);
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} aria-label="Shape of the model">
      <Typography variant="h2" sx={{ fontSize: 16, mb: 1 }}>
        Shape of the model
      </Typography>
      {ssm.error && <Alert severity="error">The modes could not be loaded. {ssm.error.message}</Alert>}
      {!ssm.data && !ssm.error && <CircularProgress size={20} aria-label="Loading the modes" />}
      {ssm.data && (
        <>
          <SsmModeSliders
            modes={modes}
            deviations={deviations}
            onChange={setMoving}
            onCommit={commit}
            idPrefix="room-mode"
          />
          <Button
            size="small"
            disabled={deviations.every((value) => value === 0)}
            onClick={() => commit(deviations.map(() => 0))}
          >
            Mean shape
          </Button>
        </>
      )}
    </Paper>
  );
}
