import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { fillTemplate, type ResultManifest } from '../resultData';

export interface DownloadsPanelProps {
  manifest: ResultManifest;
  exportUrlTemplate: string;
  monitorsUrl: string | null;
}

/**
 * Downloads (issue 16 item 5): one object at one saved timestep as CSV (units in the headers) or VTP for ParaView,
 * converted by the server, and monitors.csv; a particle's CSV is on the line-graph card.
 */
export function DownloadsPanel({ manifest, exportUrlTemplate, monitorsUrl }: DownloadsPanelProps) {
  const [object, setObject] = useState(manifest.objects[0]?.name ?? '');
  const [timestep, setTimestep] = useState(manifest.timesteps.length - 1);
  const step = Math.min(Math.max(0, timestep), manifest.timesteps.length - 1);
  const url = (format: 'csv' | 'vtp') => fillTemplate(exportUrlTemplate, { object, timestep: step, format });
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Downloads">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Downloads
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <TextField
          select
          size="small"
          label="Object"
          value={object}
          onChange={(event) => setObject(event.target.value)}
          sx={{ minWidth: 140 }}
        >
          {manifest.objects.map((o) => (
            <MenuItem key={o.name} value={o.name}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Saved timestep"
          value={step}
          onChange={(event) => setTimestep(Number(event.target.value))}
          sx={{ minWidth: 200 }}
        >
          {manifest.timesteps.map((t, k) => (
            <MenuItem key={t.index} value={k}>
              Timestep {k + 1} (t = {Number((t.time * 1000).toPrecision(4))} ms)
            </MenuItem>
          ))}
        </TextField>
        <Button component="a" href={url('csv')} download variant="outlined" startIcon={<DownloadIcon />}>
          CSV
        </Button>
        <Button component="a" href={url('vtp')} download variant="outlined" startIcon={<DownloadIcon />}>
          VTP for ParaView
        </Button>
        {monitorsUrl && (
          <Button component="a" href={monitorsUrl} download startIcon={<DownloadIcon />}>
            Monitors CSV
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
