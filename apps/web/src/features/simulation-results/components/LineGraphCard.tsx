import { useMemo, useState } from 'react';
import { outputLabel, outputLabelWithUnit, type UnitSystem } from '@insilico/sph/outputLabels';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import type { RenameOutcome } from '../../../components/RenameField';
import { SearchableSelect } from '../../../components/SearchableSelect';
import { ChartCard, defaultChartFileName } from '../../analysis';
import { defaultLineXLabel, lineChartOption } from '../lineChartOption';
import type { PlotSeries, SelectedParticleItem } from '../types';
import { ParticleList } from './ParticleList';

export interface LineGraphCardProps {
  /** The particles picked in the scene or from the list (spec §3 "Selected particle item"). */
  particles: readonly SelectedParticleItem[];
  /** The simulation outputs that can be plotted (snake_case names). */
  outputs: readonly string[];
  /** The plotted output, or null before one is chosen. */
  output: string | null;
  onOutputChange: (output: string | null) => void;
  /** Saves a particle's new name; answers 'duplicate' when another particle has it. Without it names are read-only. */
  onRenameParticle?: ((index: number, name: string) => Promise<RenameOutcome>) | undefined;
  title?: string;
  xLabel?: string;
  /** The SVG export's file name without extension (default 'graph'). */
  fileName?: string;
  /** Adds the 'average' series across all series (spec §9: on by default). */
  showAverage?: boolean;
  unitSystem?: UnitSystem;
  height?: number;
}

/** The series of one output: one per particle that has it, coloured by the particle's index. */
export function seriesOf(particles: readonly SelectedParticleItem[], output: string | null): PlotSeries[] {
  if (output === null) return [];
  return particles.flatMap((particle) => {
    const plot = particle.plotData.find((entry) => entry.output === output);
    return plot ? [{ name: particle.name, data: plot.data, index: particle.index }] : [];
  });
}

/**
 * The line-graph card (spec §2 item 1, §3, §4 "Charts", §9): the selected particles grouped by object, an output
 * picker, and a line chart about 280 px high of that output over the timesteps, with the 'average' series and a
 * logarithmic y axis by default (the toolbox's restore button puts it back on).
 */
export function LineGraphCard({
  particles,
  outputs,
  output,
  onOutputChange,
  onRenameParticle,
  title = 'Particles over time',
  xLabel = defaultLineXLabel,
  fileName = defaultChartFileName,
  showAverage = true,
  unitSystem = 'si',
  height = 280,
}: LineGraphCardProps) {
  const [logScale, setLogScale] = useState(true);
  const series = useMemo(() => seriesOf(particles, output), [particles, output]);
  const option = useMemo(
    () =>
      lineChartOption({
        series,
        xLabel,
        yLabel: output === null ? '' : outputLabelWithUnit(output, unitSystem),
        logScale,
        showAverage,
      }),
    [series, xLabel, output, unitSystem, logScale, showAverage],
  );
  const options = useMemo(() => outputs.map((name) => ({ value: name, label: outputLabel(name) })), [outputs]);
  return (
    <ChartCard
      title={title}
      option={option}
      empty={series.length === 0}
      fileName={fileName}
      height={height}
      onRestore={() => setLogScale(true)}
      controls={
        <>
          <ParticleList particles={particles} onRename={onRenameParticle} />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
            <SearchableSelect label="Output" options={options} value={output} onChange={onOutputChange} />
            <FormControlLabel
              control={<Switch checked={logScale} onChange={(event) => setLogScale(event.target.checked)} />}
              label="Log scale"
            />
          </Stack>
        </>
      }
    />
  );
}
