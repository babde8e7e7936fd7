import { useEffect, useRef, useState, type PointerEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MaskRegion } from '@insilico/dicom';
import type { SeriesPreview } from '../imaging/scan';
import { useImagingFlow } from './ImagingFlowContext';

/** The series whose burned-in text is masked. */
export interface MaskedSeries {
  id: string;
  description: string;
}

type Preview =
  { state: 'loading' } | { state: 'ready'; image: SeriesPreview | null } | { state: 'error'; message: string };

const fields = [
  ['x', 'Left'],
  ['y', 'Top'],
  ['width', 'Width'],
  ['height', 'Height'],
] as const;

/** A region kept inside the image, whole pixels, at least one pixel wide and high. */
export function clampRegion(region: MaskRegion, rows: number, columns: number): MaskRegion {
  const whole = (v: number) => (Number.isFinite(v) ? Math.round(v) : 0);
  const x = Math.min(Math.max(0, whole(region.x)), columns - 1);
  const y = Math.min(Math.max(0, whole(region.y)), rows - 1);
  return {
    x,
    y,
    width: Math.min(Math.max(1, whole(region.width)), columns - x),
    height: Math.min(Math.max(1, whole(region.height)), rows - y),
  };
}

/**
 * Regions of burned-in text to blank (set to black) in every image of a series before upload (issue 19 item 3):
 * drawn by dragging on the series' first image, or typed in image pixels (keyboard); the choice goes into the
 * de-identification manifest.
 */
export function MaskRegionsDialog({ series, onClose }: { series: MaskedSeries; onClose: () => void }) {
  const flow = useImagingFlow();
  const [preview, setPreview] = useState<Preview>({ state: 'loading' });
  const [regions, setRegions] = useState<MaskRegion[]>(() => [...(flow.maskedRegions.get(series.id) ?? [])]);
  const [drag, setDrag] = useState<{ from: [number, number]; to: [number, number] } | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const { preview: load } = flow;

  useEffect(() => {
    let live = true;
    load(series.id).then(
      (image) => live && setPreview({ state: 'ready', image }),
      (error: unknown) =>
        live &&
        setPreview({
          state: 'error',
          message: error instanceof Error ? error.message : 'The image could not be read.',
        }),
    );
    return () => {
      live = false;
    };
  }, [load, series.id]);

  const image = preview.state === 'ready' ? preview.image : null;
  const scale = image ? image.width / image.columns : 1;
  const dragged = drag && image ? regionOf(drag.from, drag.to) : null;

  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context || !image) return;
    const data = context.createImageData(image.width, image.height);
    image.pixels.forEach((grey, i) => data.data.set([grey, grey, grey, 255], i * 4));
    context.putImageData(data, 0, 0);
    for (const region of dragged ? [...regions, dragged] : regions) {
      context.fillStyle = 'rgba(0, 0, 0, 0.85)';
      context.strokeStyle = '#ff5252';
      context.lineWidth = 1;
      const [x, y, w, h] = [region.x * scale, region.y * scale, region.width * scale, region.height * scale];
      context.fillRect(x, y, w, h);
      context.strokeRect(x + 0.5, y + 0.5, Math.max(0, w - 1), Math.max(0, h - 1));
    }
  }, [image, regions, dragged, scale]);

  /** The image pixel under the pointer. */
  const pixelAt = (event: PointerEvent<HTMLCanvasElement>): [number, number] => {
    const box = event.currentTarget.getBoundingClientRect();
    const cssScale = box.width / event.currentTarget.width;
    return [(event.clientX - box.left) / cssScale / scale, (event.clientY - box.top) / cssScale / scale];
  };
  function regionOf(from: [number, number], to: [number, number]): MaskRegion {
    return clampRegion(
      {
        x: Math.floor(Math.min(from[0], to[0])),
        y: Math.floor(Math.min(from[1], to[1])),
        width: Math.ceil(Math.abs(to[0] - from[0])),
        height: Math.ceil(Math.abs(to[1] - from[1])),
      },
      image!.rows,
      image!.columns,
    );
  }

  const update = (index: number, key: keyof MaskRegion, value: string) =>
    setRegions((previous) =>
      previous.map((r, i) =>
        i === index && image ? clampRegion({ ...r, [key]: Number(value) }, image.rows, image.columns) : r,
      ),
    );
  const title = series.description || 'Series without description';

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="mask-regions-title">
      <DialogTitle id="mask-regions-title">Mask text in “{title}”</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          The regions are blanked (set to black) in every image of this series before it leaves your computer. Drag on
          the image to add a region, or add one and type its place in image pixels. Text outside the regions stays:
          check every image type of the series.
        </Typography>
        {preview.state === 'loading' && <CircularProgress aria-label="Reading the first image" />}
        {preview.state === 'error' && <Alert severity="error">{preview.message}</Alert>}
        {preview.state === 'ready' && !image && (
          <Alert severity="warning">This series has no image that can be shown, so no region can be drawn.</Alert>
        )}
        {image && (
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ bgcolor: 'black', lineHeight: 0, flex: 'none' }}>
              <canvas
                ref={canvas}
                width={image.width}
                height={image.height}
                role="img"
                aria-label={`First image of ${title}, ${image.columns} × ${image.rows} pixels, with the regions to mask`}
                data-testid="mask-canvas"
                style={{ cursor: 'crosshair', touchAction: 'none', maxWidth: '100%' }}
                onPointerDown={(event) => {
                  event.currentTarget.setPointerCapture(event.pointerId);
                  const at = pixelAt(event);
                  setDrag({ from: at, to: at });
                }}
                onPointerMove={(event) => drag && setDrag({ ...drag, to: pixelAt(event) })}
                onPointerUp={(event) => {
                  if (!drag) return;
                  const region = regionOf(drag.from, pixelAt(event));
                  setDrag(null);
                  if (region.width >= 2 && region.height >= 2) setRegions((previous) => [...previous, region]);
                }}
              />
              <Typography variant="caption" sx={{ color: 'grey.400', display: 'block', p: 0.5, lineHeight: 1.4 }}>
                {image.columns} × {image.rows} pixels
              </Typography>
            </Box>
            <Stack spacing={1.5} sx={{ flex: 1 }}>
              {regions.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  No region yet: nothing is masked.
                </Typography>
              )}
              {regions.map((region, index) => (
                <Stack
                  key={index}
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'center' }}
                  role="group"
                  aria-label={`Region ${index + 1}`}
                >
                  {fields.map(([key, label]) => (
                    <TextField
                      key={key}
                      label={label}
                      type="number"
                      size="small"
                      value={region[key]}
                      onChange={(e) => update(index, key, e.target.value)}
                      slotProps={{ htmlInput: { min: 0, step: 1, 'aria-label': `${label} of region ${index + 1}` } }}
                      sx={{ width: 96 }}
                    />
                  ))}
                  <Button
                    color="error"
                    onClick={() => setRegions((previous) => previous.filter((_, i) => i !== index))}
                    aria-label={`Remove region ${index + 1}`}
                  >
                    Remove
                  </Button>
                </Stack>
              ))}
              <Box>
                <Button
                  variant="outlined"
                  onClick={() =>
                    // A band across the top, where scanners usually write names and dates.
                    setRegions((previous) => [
                      ...previous,
                      clampRegion(
                        { x: 0, y: 0, width: image.columns, height: Math.ceil(image.rows / 10) },
                        image.rows,
                        image.columns,
                      ),
                    ])
                  }
                >
                  Add a region
                </Button>
              </Box>
            </Stack>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!image}
          onClick={() => {
            flow.setMaskedRegions(series.id, regions);
            onClose();
          }}
        >
          {regions.length === 0
            ? 'Mask nothing'
            : `Mask ${regions.length} ${regions.length === 1 ? 'region' : 'regions'}`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
