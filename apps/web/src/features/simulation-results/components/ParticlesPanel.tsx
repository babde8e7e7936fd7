import { useMemo, useState } from 'react';
import { simulationTimelineSchema, timelineParticleLimit, type SimulationTimeline } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import useSWR from 'swr';
import { NumericStepper } from '../../../components/NumericStepper';
import type { RenameOutcome } from '../../../components/RenameField';
import { apiFetch } from '../../../lib/api';
import { ApiError } from '../../../lib/apiError';
import { renameParticle, resultUrls, runningRefreshMs } from '../api';
import { particleCsv, particleCsvName, type ResultManifest } from '../resultData';
import type { SelectedParticleItem } from '../types';
import { LineGraphCard } from './LineGraphCard';

/** A particle followed on the card: its object and its stable id. */
export interface PickedParticle {
  object: string;
  particle: number;
}

export const pickedKey = (p: PickedParticle) => `${p.object}:${p.particle}`;

export interface ParticlesPanelProps {
  ids: { deviceId: string; projectId: string; simulationId: string };
  simulationName: string;
  manifest: ResultManifest;
  running: boolean;
  canRename: boolean;
  picked: readonly PickedParticle[];
  onPickedChange: (picked: PickedParticle[]) => void;
}

/** The card's items from the timelines: per particle every output over the timesteps (spec §3 "plotData"). */
export function selectedItems(
  picked: readonly PickedParticle[],
  timelines: readonly SimulationTimeline[],
): SelectedParticleItem[] {
  return picked.flatMap((p) => {
    const entry = timelines.find((t) => t.object === p.object)?.particles.find((q) => q.particle === p.particle);
    if (!entry) return [];
    return [
      {
        index: p.particle,
        name: entry.name,
        objectName: p.object,
        plotData: Object.entries(entry.values).map(([output, data]) => ({
          output,
          data: data.map((v) => (v === null ? NaN : v)),
        })),
      },
    ];
  });
}

/**
 * The line-graph card wired to a result (issue 16 item 6): particles picked in 3D or added here by object and id,
 * their outputs over the timesteps from the timeline API (one request per object with its particles), renamed on
 * the server, and each downloadable as CSV with units in the headers.
 */
export function ParticlesPanel({
  ids,
  simulationName,
  manifest,
  running,
  canRename,
  picked,
  onPickedChange,
}: ParticlesPanelProps) {
  const { deviceId, projectId, simulationId } = ids;
  const [output, setOutput] = useState<string | null>(null);
  const [object, setObject] = useState(manifest.objects[0]?.name ?? '');
  const [particle, setParticle] = useState(0);
  const urls = useMemo(() => {
    const objects = [...new Set(picked.map((p) => p.object))];
    return objects.map((o) =>
      resultUrls.timeline(
        deviceId,
        projectId,
        simulationId,
        o,
        picked.filter((p) => p.object === o).map((p) => p.particle),
      ),
    );
  }, [picked, deviceId, projectId, simulationId]);
  const timelines = useSWR(
    urls.length ? ['timelines', ...urls] : null,
    ([, ...keys]: string[]) => Promise.all(keys.map((url) => apiFetch(url, { schema: simulationTimelineSchema }))),
    { refreshInterval: running ? runningRefreshMs : 0, keepPreviousData: true },
  );
  const items = useMemo(() => selectedItems(picked, timelines.data ?? []), [picked, timelines.data]);
  const outputs = useMemo(() => {
    const names = new Set<string>();
    for (const timeline of timelines.data ?? []) for (const o of timeline.outputs) names.add(o.name);
    return [...names];
  }, [timelines.data]);
  // The first output that is not a coordinate until the person chooses.
  const shownOutput = output ?? outputs.find((name) => !name.startsWith('position_')) ?? outputs[0] ?? null;
  const chosenObject = manifest.objects.find((o) => o.name === object);
  const full = picked.length >= timelineParticleLimit;

  const add = () => {
    if (full || picked.some((p) => p.object === object && p.particle === particle)) return;
    onPickedChange([...picked, { object, particle }]);
  };
  const rename = async (index: number, name: string): Promise<RenameOutcome> => {
    const target = picked.find((p) => p.particle === index);
    if (!target) return 'duplicate';
    try {
      await renameParticle(deviceId, projectId, simulationId, target.object, target.particle, name);
      await timelines.mutate();
      return 'saved';
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409) return 'duplicate';
      throw caught;
    }
  };
  const download = (item: SelectedParticleItem) => {
    const timeline = timelines.data?.find((t) => t.object === item.objectName);
    if (!timeline) return;
    const blob = new Blob([particleCsv(timeline, item.index)], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = particleCsvName(simulationName, item.objectName, item.name);
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  return (
    <Stack spacing={1}>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Choose particles">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            Click particles in the 3D view, or add one by its object and number.
          </Typography>
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
          <NumericStepper
            label="Particle"
            value={particle}
            onChange={setParticle}
            min={0}
            max={Math.max(0, (chosenObject?.particleCount ?? 1) - 1)}
            kind="integer"
            width={120}
          />
          <Button variant="outlined" onClick={add} disabled={full}>
            Add particle
          </Button>
          <Button onClick={() => onPickedChange([])} disabled={picked.length === 0}>
            Clear
          </Button>
        </Stack>
        {full && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            At most {timelineParticleLimit} particles are followed at once.
          </Typography>
        )}
      </Paper>
      {timelines.error && <Alert severity="error">The particles could not be loaded. {timelines.error.message}</Alert>}
      <LineGraphCard
        particles={items}
        outputs={outputs}
        output={shownOutput}
        onOutputChange={setOutput}
        onRenameParticle={canRename ? rename : undefined}
        fileName="particles"
      />
      {items.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} aria-label="Particle downloads">
          {items.map((item) => (
            <Button
              key={`${item.objectName}:${item.index}`}
              size="small"
              startIcon={<DownloadIcon aria-hidden="true" />}
              onClick={() => download(item)}
            >
              CSV of {item.name}
            </Button>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
