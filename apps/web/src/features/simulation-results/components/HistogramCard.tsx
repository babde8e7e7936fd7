import { useCallback, useMemo, useState } from 'react';
import { outputLabel, outputLabelWithUnit, type UnitSystem } from '@insilico/sph/outputLabels';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { NumericStepper } from '../../../components/NumericStepper';
import { ScreenshotThumbnail } from '../../../components/ScreenshotPreviewModal';
import { SearchableSelect } from '../../../components/SearchableSelect';
import { TagChip } from '../../../components/TagChip';
import { ChartCard, defaultChartFileName } from '../../analysis';
import { heatmapOption, heatmapTooltip, histogramOption, layoutOf } from '../analysisChartOption';
import { clampBinCount, clampBinSize, maxBinSize, maxBins, minBinSizeFor, minBins } from '@insilico/contracts/binning';
import { heatmapPainter } from '../heatmapCanvas';
import {
  bodyTypes,
  defaultBodyType,
  isHeatmapData,
  noOutputSelected,
  type AnalysisPlotData,
  type BodyType,
} from '../types';
import { defaultBinCount, type BinChoice, type PlotRequest } from '../worker/binningProtocol';

/** Spec §9: the analysis card's default height and, without a result, the default slider range 0 to 100. */
export const analysisCardHeight = 542;
export const defaultMaxTimestamp = 100;

export type AnalysisMode = 'timestep' | 'range';

export interface HistogramCardProps {
  /** The objects of the result (e.g. blood, stent) and those picked (spec §3 "selected objects"). */
  objects: readonly string[];
  selectedObjects: readonly string[];
  onSelectedObjectsChange: (objects: string[]) => void;
  bodyType?: BodyType;
  onBodyTypeChange: (bodyType: BodyType) => void;
  /** The outputs of the body type (snake_case); `output` is 'Select' until one is chosen (spec §3). */
  outputs: readonly string[];
  output?: string;
  onOutputChange: (output: string) => void;
  /** The number of timesteps: the slider shows 1 to this. */
  maxTimestamp?: number;
  /** The selected section (e.g. a plane through the aortic root) and its preview image. */
  sectionName?: string;
  sectionPreviewImage?: string;
  /** The bins to draw: a histogram of one timestep or a heatmap of a range (spec §3). */
  plotData: AnalysisPlotData | null;
  /** Spec §4: the toggle is hidden and the slider disabled. */
  slidersDisabled?: boolean;
  /** Asks the parent to compute the plot for a mode, timesteps (zero-based) and bins. */
  onReload: (request: PlotRequest) => void;
  title?: string;
  fileName?: string;
  height?: number;
  unitSystem?: UnitSystem;
}

/**
 * The histogram/heatmap analysis card (spec §2 item 2, §3, §4 "Analysis card", §5, §9): object picker, output picker,
 * timestep slider (1 to max, sending zero-based values) or range slider (at least 1 apart), the Timestep/Range toggle,
 * the selected-section header, bin size and amount of bins; a histogram of one timestep or a heatmap of a range.
 */
export function HistogramCard({
  objects,
  selectedObjects,
  onSelectedObjectsChange,
  bodyType = defaultBodyType,
  onBodyTypeChange,
  outputs,
  output = noOutputSelected,
  onOutputChange,
  maxTimestamp = defaultMaxTimestamp,
  sectionName,
  sectionPreviewImage,
  plotData,
  slidersDisabled = false,
  onReload,
  title = 'Distribution',
  fileName = defaultChartFileName,
  height = analysisCardHeight,
  unitSystem = 'si',
}: HistogramCardProps) {
  const lastStep = Math.max(0, maxTimestamp - 1);
  const [mode, setMode] = useState<AnalysisMode>(plotData && isHeatmapData(plotData) ? 'range' : 'timestep');
  const [timestep, setTimestep] = useState(() => (plotData && !isHeatmapData(plotData) ? plotData.timestep : 0));
  const [range, setRange] = useState<[number, number]>(() =>
    plotData && isHeatmapData(plotData) ? [plotData.timerange.start, plotData.timerange.end] : [0, lastStep],
  );
  const [bins, setBins] = useState<BinChoice>({ binCount: defaultBinCount });
  const [logScale, setLogScale] = useState(true);
  // Spec §4: the card switches to timestep when histogram data arrives and to range when heatmap data arrives.
  const [seen, setSeen] = useState(plotData);
  if (plotData !== seen) {
    setSeen(plotData);
    if (plotData) {
      const heat = isHeatmapData(plotData);
      setMode(heat ? 'range' : 'timestep');
      if (heat) setRange([plotData.timerange.start, plotData.timerange.end]);
      else setTimestep(plotData.timestep);
    }
  }

  const request = useCallback(
    (next: { mode?: AnalysisMode; timestep?: number; range?: [number, number]; bins?: BinChoice }): PlotRequest => {
      const m = next.mode ?? mode;
      const b = next.bins ?? bins;
      if (m === 'timestep') return { mode: 'timestep', timestep: next.timestep ?? timestep, bins: b };
      const [start, end] = next.range ?? range;
      return { mode: 'range', start, end, bins: b };
    },
    [mode, bins, timestep, range],
  );

  const chosen = output !== noOutputSelected;
  const valueLabel = chosen ? outputLabelWithUnit(output, unitSystem) : '';
  const heat = plotData && isHeatmapData(plotData) ? plotData : null;
  const paint = useMemo(() => (heat ? heatmapPainter(heat.data, layoutOf(heat).count) : null), [heat]);
  const option = useMemo(() => {
    if (!plotData) return {};
    return isHeatmapData(plotData)
      ? heatmapOption(plotData, valueLabel, paint)
      : histogramOption(plotData, valueLabel, logScale);
  }, [plotData, valueLabel, paint, logScale]);
  const pointerTooltip = useMemo(
    () => (heat ? (x: number, y: number) => heatmapTooltip(heat, x, y) : undefined),
    [heat],
  );

  const layout = plotData ? layoutOf(plotData) : null;
  const changeBins = (choice: BinChoice) => {
    setBins(choice);
    onReload(request({ bins: choice }));
  };
  const outputOptions = useMemo(() => outputs.map((name) => ({ value: name, label: outputLabel(name) })), [outputs]);

  return (
    <ChartCard
      title={title}
      option={option}
      empty={!chosen || plotData === null || (layout?.count ?? 0) === 0}
      fileName={fileName}
      height={height}
      onRestore={() => setLogScale(true)}
      pointerTooltip={pointerTooltip}
      headerExtra={
        sectionName ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', ml: 'auto', mr: 1 }}>
            {sectionPreviewImage && (
              <ScreenshotThumbnail
                thumbnailUrl={sectionPreviewImage}
                fullUrl={sectionPreviewImage}
                label={`Section ${sectionName}`}
                size={40}
              />
            )}
            <Typography component="h4" variant="subtitle2">
              Selected section: {sectionName}
            </Typography>
          </Stack>
        ) : undefined
      }
      controls={
        <Stack spacing={1.5} sx={{ mb: 1 }}>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} role="group" aria-label="Objects">
            {objects.map((name) => {
              const selected = selectedObjects.includes(name);
              return (
                <TagChip
                  key={name}
                  label={name}
                  selected={selected}
                  color={selected ? 'primary' : 'default'}
                  onClick={() =>
                    onSelectedObjectsChange(
                      selected ? selectedObjects.filter((o) => o !== name) : [...selectedObjects, name],
                    )
                  }
                />
              );
            })}
          </Stack>
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 1.5, alignItems: 'center' }}>
            <TextField
              select
              size="small"
              label="Body type"
              value={bodyType}
              onChange={(event) => onBodyTypeChange(event.target.value as BodyType)}
              sx={{ width: 140 }}
            >
              {bodyTypes.map((type) => (
                <MenuItem key={type} value={type}>
                  {type}
                </MenuItem>
              ))}
            </TextField>
            <SearchableSelect
              label="Output"
              placeholder={noOutputSelected}
              options={outputOptions}
              value={chosen ? output : null}
              onChange={(value) => onOutputChange(value ?? noOutputSelected)}
            />
            {!slidersDisabled && (
              <ToggleButtonGroup
                size="small"
                exclusive
                value={mode}
                aria-label="Timestep or range"
                onChange={(_event, next: AnalysisMode | null) => {
                  if (!next || next === mode) return;
                  setMode(next);
                  onReload(request({ mode: next }));
                }}
              >
                <ToggleButton value="timestep">Timestep</ToggleButton>
                <ToggleButton value="range">Range</ToggleButton>
              </ToggleButtonGroup>
            )}
          </Stack>
          <Box sx={{ px: 1 }}>
            {mode === 'timestep' ? (
              <Slider
                aria-label="Timestep"
                min={1}
                max={Math.max(1, maxTimestamp)}
                step={1}
                valueLabelDisplay="auto"
                disabled={slidersDisabled}
                value={timestep + 1}
                onChange={(_event, value) => setTimestep(value - 1)}
                onChangeCommitted={(_event, value) => onReload(request({ timestep: value - 1 }))}
              />
            ) : (
              <Slider
                getAriaLabel={(thumb) => (thumb === 0 ? 'First timestep' : 'Last timestep')}
                min={1}
                max={Math.max(2, maxTimestamp)}
                step={1}
                valueLabelDisplay="auto"
                disableSwap
                disabled={slidersDisabled}
                value={[range[0] + 1, range[1] + 1]}
                onChange={(_event, value, thumb) => setRange(rangeWithMinimum(value, thumb, lastStep))}
                onChangeCommitted={(_event, value) =>
                  onReload(request({ range: rangeWithMinimum(value, 0, lastStep) }))
                }
              />
            )}
          </Box>
          <Stack direction="row" spacing={2} sx={{ flexWrap: 'wrap', rowGap: 1.5, alignItems: 'center' }}>
            <NumericStepper
              label="Bin size"
              value={layout?.binSize ?? 0}
              min={layout ? minBinSizeFor(layout.min, layout.max) : undefined}
              max={maxBinSize}
              step={layout ? minBinSizeFor(layout.min, layout.max) : 1}
              disabled={!layout}
              ignoreEmptyOrZero
              onChange={(size) => {
                const clamped = layout ? clampBinSize(size, layout.min, layout.max) : null;
                if (clamped !== null) changeBins({ binSize: clamped });
              }}
            />
            <NumericStepper
              label="Amount of bins"
              kind="integer"
              value={layout?.count ?? defaultBinCount}
              min={minBins}
              max={maxBins}
              disabled={!layout}
              onChange={(count) => changeBins({ binCount: clampBinCount(count) })}
            />
            {!heat && (
              <FormControlLabel
                control={<Switch checked={logScale} onChange={(event) => setLogScale(event.target.checked)} />}
                label="Log scale"
              />
            )}
          </Stack>
        </Stack>
      }
    />
  );
}

/**
 * The range slider's value kept at least 1 step long (spec §5), zero-based: the thumb that moved gives way at the
 * ends of the track. Values come in as shown (from 1).
 */
export function rangeWithMinimum(shown: readonly number[], thumb: number, lastStep: number): [number, number] {
  let start = (shown[0] ?? 1) - 1;
  let end = (shown[1] ?? 1) - 1;
  if (end - start < 1) {
    if (thumb === 0) {
      end = Math.min(lastStep, start + 1);
      start = Math.min(start, end - 1);
    } else {
      start = Math.max(0, end - 1);
      end = Math.max(end, start + 1);
    }
  }
  return [Math.max(0, start), Math.min(Math.max(1, lastStep), end)];
}
