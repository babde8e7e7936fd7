import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Simulation } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { productName } from '../../../lib/product';
import { preloadCharts } from '../../analysis';
import { fetchAhead, useResults, useSimulation } from '../api';
import { CaptureLocations } from './CaptureLocations';
import { DistributionPanel } from './DistributionPanel';
import { DownloadsPanel } from './DownloadsPanel';
import { ParticlesPanel, pickedKey, type PickedParticle } from './ParticlesPanel';
import { PlaybackPanel, prefetchPlayback, preloadPlayback } from './PlaybackPanel';
import { PredefinedPlots } from './PredefinedPlots';

export interface SimulationResultsPageProps {
  deviceId: string;
  projectId: string;
  simulationId: string;
  /** The link back (the room), above the title. */
  back?: ReactNode;
  /** The gallery the screenshots go to (the room's), below the analysis. */
  gallery?: ReactNode;
  /** Keeps a screenshot of the 3D view in the gallery; null where the caller may not. */
  onScreenshot: ((png: Blob) => Promise<void>) | null;
}

const statusLabels: Record<Simulation['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The simulation result analysis page (`/projects/room/analyses?…&simulation=`, spec §2, issue 16 item 5): 3D
 * playback, screenshots into the room's gallery, predefined plots of the kind, the line-graph and histogram/heatmap
 * cards, and downloads. A run still going shows its progress and whatever timesteps are saved so far, refreshed.
 */
export function SimulationResultsPage({
  deviceId,
  projectId,
  simulationId,
  back,
  gallery,
  onScreenshot,
}: SimulationResultsPageProps) {
  const simulation = useSimulation(deviceId, projectId, simulationId);
  const running = simulation.data?.status === 'queued' || simulation.data?.status === 'running';
  // When the results first arrive, the first frame and the monitors are asked for at once (not after the render).
  const askedAhead = useRef<string | null>(null);
  const results = useResults(deviceId, projectId, simulationId, running, (answer) => {
    if (!answer || askedAhead.current === simulationId) return;
    askedAhead.current = simulationId;
    prefetchPlayback(answer);
    if (answer.monitorsUrl) fetchAhead(answer.monitorsUrl);
  });
  const [picked, setPicked] = useState<PickedParticle[]>([]);
  const pickedKeys = useMemo(() => picked.map(pickedKey), [picked]);
  const onPick = useCallback(
    (object: string, particle: number) =>
      setPicked((current) =>
        current.some((p) => p.object === object && p.particle === particle)
          ? current
          : [...current, { object, particle }],
      ),
    [],
  );
  // The 3D view's and the charts' chunks load while the simulation and its results are asked for, not after.
  useEffect(() => {
    preloadPlayback();
    preloadCharts();
  }, []);
  const name = simulation.data?.name;
  useEffect(() => {
    if (name) document.title = `${name} · Results · ${productName}`;
  }, [name]);

  if (simulation.error && !simulation.data)
    return <LoadFailure what="The simulation" error={simulation.error} retry={() => void simulation.mutate()} />;
  if (!simulation.data) return <Loading what="the simulation" />;
  const s = simulation.data;
  const ids = { deviceId, projectId, simulationId };
  const data = results.data;

  return (
    <Stack spacing={2}>
      {back}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="overline" color="primary" component="p">
            Simulation results
          </Typography>
          <Typography variant="h4" component="h1">
            {s.name}
          </Typography>
          <Typography color="text.secondary">
            {kindLabel(s.kind)} simulation in {s.roomName}
            {s.deviceVersion ? ` · ${s.deviceVersion.name}` : ''} · {s.resolution} resolution · {s.phase}
          </Typography>
        </Stack>
        <Chip
          label={statusLabels[s.status]}
          color={s.status === 'completed' ? 'success' : s.status === 'failed' ? 'error' : 'default'}
        />
      </Stack>
      <RunState simulation={s} timesteps={data?.manifest.timesteps.length ?? 0} />
      {results.error && !data ? (
        <LoadFailure what="The results" error={results.error} retry={() => void results.mutate()} />
      ) : data === undefined ? (
        <Loading what="the results" />
      ) : data === null ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography color="text.secondary">
            {running
              ? 'No timestep is saved yet. The results appear here as soon as the first one is.'
              : 'This simulation saved no timestep, so it has no results to analyse.'}
          </Typography>
        </Paper>
      ) : (
        <>
          <PlaybackPanel
            key={data.manifest.objects.map((o) => o.name).join(',')}
            manifest={data.manifest}
            frameUrlTemplate={data.frameUrlTemplate}
            ranges={data.ranges}
            picked={pickedKeys}
            onPick={onPick}
            onScreenshot={onScreenshot}
          />
          {gallery}
          <PredefinedPlots
            ids={ids}
            kind={s.kind}
            manifest={data.manifest}
            frameUrlTemplate={data.frameUrlTemplate}
            heatmapUrl={data.heatmapUrl}
            monitorsUrl={data.monitorsUrl}
            running={running}
          />
          {s.kind === 'particle' && (
            <CaptureLocations manifest={data.manifest} frameUrlTemplate={data.frameUrlTemplate} />
          )}
          <ParticlesPanel
            ids={ids}
            simulationName={s.name}
            manifest={data.manifest}
            running={running}
            canRename={onScreenshot !== null}
            picked={picked}
            onPickedChange={setPicked}
          />
          <DistributionPanel
            manifest={data.manifest}
            frameUrlTemplate={data.frameUrlTemplate}
            heatmapUrl={data.heatmapUrl}
          />
          <DownloadsPanel
            manifest={data.manifest}
            exportUrlTemplate={data.exportUrlTemplate}
            monitorsUrl={data.monitorsUrl}
          />
        </>
      )}
    </Stack>
  );
}

function kindLabel(kind: Simulation['kind']): string {
  return kind[0]!.toUpperCase() + kind.slice(1);
}

/** Progress of a run still going, or why it stopped; what is available so far. */
function RunState({ simulation, timesteps }: { simulation: Simulation; timesteps: number }) {
  const percent = Math.round(simulation.progress * 100);
  const ms = (seconds: number) => `${Number((seconds * 1000).toPrecision(3))} ms`;
  if (simulation.status === 'queued')
    return <Alert severity="info">The simulation is queued: it starts when a slot of the workspace is free.</Alert>;
  if (simulation.status === 'running')
    return (
      <Alert severity="info" role="status">
        <Stack spacing={1}>
          <span>
            Running: {percent} % (simulated {ms(simulation.simulatedTime)} of {ms(simulation.endTime)})
            {simulation.etaSeconds !== null ? `, about ${formatEta(simulation.etaSeconds)} left` : ''}.{' '}
            {timesteps > 0
              ? `${timesteps} saved ${timesteps === 1 ? 'timestep is' : 'timesteps are'} shown below; more appear as the run goes on.`
              : ''}
          </span>
          <LinearProgress variant="determinate" value={percent} aria-label="Simulation progress" />
        </Stack>
      </Alert>
    );
  if (simulation.status === 'failed')
    return (
      <Alert severity="error">
        The simulation failed. {simulation.error ?? ''}{' '}
        {timesteps > 0 ? `The ${timesteps} timesteps saved before are shown below.` : ''}
      </Alert>
    );
  if (simulation.status === 'cancelled')
    return (
      <Alert severity="warning">
        The simulation was cancelled. {timesteps > 0 ? `The ${timesteps} timesteps saved before are shown below.` : ''}
      </Alert>
    );
  return null;
}

function formatEta(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
