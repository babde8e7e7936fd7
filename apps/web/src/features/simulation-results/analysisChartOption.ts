import type { ChartOption } from '../analysis';
import { binRangeLabel, formatEdge, type BinLayout } from '@insilico/contracts/binning';
import type { HeatmapPainter } from './heatmapCanvas';
import type { HeatmapPlotData, HistogramPlotData } from './types';

/** Spec §9 "Axis labels". */
export const frequencyLabel = 'Frequency (particles)';
export const heatmapXLabel = 'Timestep';

/** The bin layout a plot's data stands for (the count is the data's length). */
export function layoutOf(data: HistogramPlotData | HeatmapPlotData): BinLayout {
  const count = 'timerange' in data ? (data.data[0]?.length ?? 0) : data.data.length;
  return { min: data.min, max: data.max, binSize: data.binSize, count };
}

const particles = (n: number) => `${n} particle${n === 1 ? '' : 's'}`;

/**
 * The histogram of one timestep (spec §9): bins on x labelled by the output with its unit, 'Frequency (particles)'
 * on y, logarithmic while `logScale` (empty bins then draw nothing); the tooltip gives the bin's half-open range.
 */
export function histogramOption(data: HistogramPlotData, valueLabel: string, logScale: boolean): ChartOption {
  const layout = layoutOf(data);
  const ranges = Array.from({ length: layout.count }, (_, i) => binRangeLabel(i, layout));
  const counts = Array.from(data.data, (c) => (logScale && c <= 0 ? null : c));
  return {
    grid: { left: 16, right: 24, top: 40, bottom: 40, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    toolbox: { right: 0, feature: { dataZoom: { yAxisIndex: 'none' }, restore: {} } },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: { dataIndex: number }[]) => {
        const index = params[0]?.dataIndex ?? 0;
        return `${ranges[index]}<br/>${particles(Number(data.data[index] ?? 0))}`;
      },
    },
    xAxis: {
      type: 'category',
      name: valueLabel,
      nameLocation: 'middle',
      nameGap: 28,
      data: ranges,
      axisLabel: { formatter: (range: string) => range.slice(1, range.indexOf(',')) },
    },
    yAxis: { type: logScale ? 'log' : 'value', name: frequencyLabel, nameLocation: 'middle', nameGap: 48 },
    series: [
      { type: 'bar', name: frequencyLabel, data: counts, barCategoryGap: '0%', itemStyle: { color: '#3b528b' } },
    ],
  };
}

/**
 * The heatmap over a timestep range (spec §9): 'Timestep' on x (shown from 1), the output's bins on y; the counts are
 * one image (`paint`) laid over the grid by a custom series, so a 999 × 999 matrix is one element, not a million.
 */
export function heatmapOption(data: HeatmapPlotData, valueLabel: string, paint: HeatmapPainter | null): ChartOption {
  const layout = layoutOf(data);
  const first = data.timerange.start + 1;
  const last = data.timerange.end + 1;
  const top = data.min + layout.count * data.binSize;
  return {
    grid: { left: 16, right: 24, top: 40, bottom: 40, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    toolbox: { right: 0, feature: { restore: {} } },
    tooltip: { trigger: 'item' },
    xAxis: {
      type: 'value',
      name: heatmapXLabel,
      nameLocation: 'middle',
      nameGap: 28,
      min: first - 0.5,
      max: last + 0.5,
      minInterval: 1,
      axisLabel: { formatter: (v: number) => (Number.isInteger(v) ? String(v) : '') },
    },
    yAxis: {
      type: 'value',
      name: valueLabel,
      nameLocation: 'middle',
      nameGap: 52,
      min: data.min,
      max: top,
      scale: true,
      // The top edge is min + count × bin size: 14.890000343322754 from Float32 values; four digits suffice.
      axisLabel: { formatter: (v: number) => formatEdge(v) },
    },
    series: [
      {
        type: 'custom',
        name: frequencyLabel,
        data: [[first - 0.5, data.min, last + 0.5, top]],
        encode: { x: [0, 2], y: [1, 3] },
        renderItem: (
          _params: unknown,
          api: { value: (i: number) => number; coord: (p: [number, number]) => [number, number] },
        ) => {
          if (!paint) return null;
          const [x0, y0] = api.coord([api.value(0), api.value(3)]);
          const [x1, y1] = api.coord([api.value(2), api.value(1)]);
          const [width, height] = [x1 - x0, y1 - y0];
          return { type: 'image', style: { image: paint(width, height), x: x0, y: y0, width, height } };
        },
      },
    ],
  };
}

/** The heatmap tooltip of a point (x: timestep as shown, y: output value): its timestep, bin range and count. */
export function heatmapTooltip(data: HeatmapPlotData, x: number, y: number): string | null {
  const layout = layoutOf(data);
  const timestep = Math.round(x);
  const row = data.data[timestep - 1 - data.timerange.start];
  const bin = Math.floor((y - data.min) / data.binSize);
  if (!row || bin < 0 || bin >= layout.count) return null;
  return `Timestep ${timestep}<br/>${binRangeLabel(bin, layout)}<br/>${particles(Number(row[bin] ?? 0))}`;
}
