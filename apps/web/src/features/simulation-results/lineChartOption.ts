import type { ChartOption } from '../analysis';
import { averageColor, seriesColor } from './palette';
import type { PlotSeries } from './types';

/** Spec §9: the line graph's default x label. */
export const defaultLineXLabel = 'Timestep';
export const averageSeriesName = 'average';

/**
 * The 'average' series (spec §9): at each timestep the mean of the series that have a finite value there; null
 * where none has.
 */
export function averageSeries(series: readonly PlotSeries[]): (number | null)[] {
  const length = Math.max(0, ...series.map((s) => s.data.length));
  const average: (number | null)[] = [];
  for (let t = 0; t < length; t++) {
    let sum = 0;
    let n = 0;
    for (const s of series) {
      const v = s.data[t];
      if (typeof v === 'number' && Number.isFinite(v)) {
        sum += v;
        n += 1;
      }
    }
    average.push(n === 0 ? null : sum / n);
  }
  return average;
}

export interface LineChartSettings {
  series: readonly PlotSeries[];
  xLabel?: string;
  yLabel: string;
  logScale: boolean;
  showAverage: boolean;
}

/** On a log axis a value ≤ 0 has no place: it is left out (a gap), not drawn at the axis' bottom. */
function forAxis(data: readonly (number | null)[], logScale: boolean): (number | null)[] {
  return data.map((v) => (v === null || !Number.isFinite(v) || (logScale && v <= 0) ? null : v));
}

/**
 * The line chart (spec §2 item 1, §9): x is the timestep shown from 1 (as the timestep slider), y the output; one line
 * per series in its palette colour by index; the 'average' across all series, dashed; the y axis logarithmic while
 * `logScale`. The toolbox's restore button lets the card put the log scale back (spec §4 "Charts").
 */
export function lineChartOption({
  series,
  xLabel = defaultLineXLabel,
  yLabel,
  logScale,
  showAverage,
}: LineChartSettings): ChartOption {
  const length = Math.max(0, ...series.map((s) => s.data.length));
  const lines = series.map((s) => ({
    type: 'line',
    name: s.name,
    data: forAxis(s.data, logScale),
    showSymbol: false,
    connectNulls: false,
    lineStyle: { width: 1.5 },
    itemStyle: { color: seriesColor(s.index) },
  }));
  if (showAverage && series.length > 0) {
    lines.push({
      type: 'line',
      name: averageSeriesName,
      data: forAxis(averageSeries(series), logScale),
      showSymbol: false,
      connectNulls: false,
      lineStyle: { width: 2.5, type: 'dashed' } as { width: number },
      itemStyle: { color: averageColor },
    });
  }
  return {
    grid: { left: 16, right: 24, top: 40, bottom: 40, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    legend: { type: 'scroll', top: 0, left: 0, right: 90 },
    tooltip: { trigger: 'axis' },
    toolbox: { right: 0, feature: { dataZoom: { yAxisIndex: 'none' }, restore: {} } },
    xAxis: {
      type: 'category',
      name: xLabel,
      nameLocation: 'middle',
      nameGap: 28,
      boundaryGap: false,
      data: Array.from({ length }, (_, t) => String(t + 1)),
    },
    yAxis: {
      type: logScale ? 'log' : 'value',
      name: yLabel,
      nameLocation: 'middle',
      nameGap: 52,
      scale: true,
    },
    series: lines,
  };
}
