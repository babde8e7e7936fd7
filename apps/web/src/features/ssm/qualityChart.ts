import type { Ssm } from '@insilico/contracts';
import type { ChartOption } from '../analysis';

type Quality = NonNullable<Ssm['quality']>;

/**
 * The SSM's quality curves over the number of modes (ShapeWorks' definitions, measured to the surface): compactness
 * (cumulative share of the variance, %) on the left axis, generalisation and specificity (mm) on the right, and a
 * line at the modes kept. One chart, so the trade-off reads at a glance; the table below keeps the numbers.
 */
export function qualityChartOption(quality: Quality): ChartOption {
  const modes = quality.compactness.map((_, k) => k + 1);
  const points = (values: readonly number[], scale = 1) =>
    modes.map((m, k) => [m, values[k] === undefined ? null : Number((values[k] * scale).toFixed(4))]);
  return {
    grid: { left: 64, right: 64, top: 48, bottom: 48 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'value',
      name: 'Modes',
      nameLocation: 'middle',
      nameGap: 28,
      min: 1,
      max: modes.length,
      minInterval: 1,
    },
    yAxis: [
      { type: 'value', name: 'Compactness (%)', min: 0, max: 100 },
      { type: 'value', name: 'Distance (mm)', min: 0 },
    ],
    series: [
      {
        type: 'line',
        name: 'Compactness',
        yAxisIndex: 0,
        data: points(quality.compactness, 100),
        markLine: {
          symbol: 'none',
          label: { formatter: `${quality.modesKept} kept` },
          data: [{ xAxis: quality.modesKept }],
        },
      },
      { type: 'line', name: 'Generalisation', yAxisIndex: 1, data: points(quality.generalisation) },
      { type: 'line', name: 'Specificity', yAxisIndex: 1, data: points(quality.specificity) },
    ],
  };
}
