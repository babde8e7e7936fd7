import { useMemo } from 'react';
import type { SimulationKindName } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { ChartCard } from '../../analysis';
import { useMonitors, useTimeline, resultUrls } from '../api';
import { lineChartOption } from '../lineChartOption';
import { predefinedPlots, wallShearStressOf, type PredefinedPlot, type ResultManifest } from '../resultData';
import { DistributionPanel } from './DistributionPanel';

export interface PredefinedPlotsProps {
  ids: { deviceId: string; projectId: string; simulationId: string };
  kind: SimulationKindName;
  manifest: ResultManifest;
  frameUrlTemplate: string;
  heatmapUrl: string;
  monitorsUrl: string | null;
  running: boolean;
}

/**
 * The predefined plots of a simulation's kind (issue 16 item 5), from monitors.csv (flow rate, pressure drop, wall
 * shear stress, captured fraction) and from the solid's timeline (maximum von Mises stress); a plot the engine cannot
 * make yet says so.
 */
export function PredefinedPlots({
  ids,
  kind,
  manifest,
  frameUrlTemplate,
  heatmapUrl,
  monitorsUrl,
  running,
}: PredefinedPlotsProps) {
  const monitors = useMonitors(monitorsUrl, running);
  const solid = manifest.objects.find((o) => o.kind === 'solid');
  const timeline = useTimeline(
    kind === 'solid' && solid
      ? resultUrls.timeline(ids.deviceId, ids.projectId, ids.simulationId, solid.name, [])
      : null,
    running,
  );
  const plots = useMemo(
    () => predefinedPlots(kind, monitors.data ?? null, timeline.data ?? null),
    [kind, monitors.data, timeline.data],
  );
  const error = monitors.error ?? timeline.error;
  const wall = kind === 'fluid' ? wallShearStressOf(manifest) : null;
  return (
    <Box component="section" aria-label="Predefined plots">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Predefined plots
      </Typography>
      {error && <Alert severity="error">The plots could not be loaded. {error.message}</Alert>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        {plots.map((plot) => (
          <PlotCard key={plot.key} plot={plot} />
        ))}
      </Box>
      {wall && (
        <Box sx={{ mt: 2 }}>
          <DistributionPanel
            manifest={manifest}
            frameUrlTemplate={frameUrlTemplate}
            heatmapUrl={heatmapUrl}
            initial={wall}
            title="Wall shear stress distribution over the wall"
            fileName="wall-shear-stress-distribution"
          />
        </Box>
      )}
    </Box>
  );
}

function PlotCard({ plot }: { plot: PredefinedPlot }) {
  const option = useMemo(
    () =>
      lineChartOption({
        series: plot.lines.map((line, index) => ({ name: line.name, data: line.data, index })),
        yLabel: plot.yLabel,
        logScale: false,
        showAverage: false,
      }),
    [plot],
  );
  if (plot.unavailable)
    return (
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h3" component="h3" sx={{ fontSize: 18, mb: 1 }}>
            {plot.title}
          </Typography>
          <Typography color="text.secondary">{plot.unavailable}</Typography>
        </CardContent>
      </Card>
    );
  return (
    <ChartCard
      title={plot.title}
      option={option}
      empty={plot.lines.every((line) => line.data.every((v) => v === null))}
      fileName={plot.key}
    />
  );
}
