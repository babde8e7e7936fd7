import type { EChartsCoreOption } from 'echarts/core';

/** An ECharts option (a type only: the library itself is loaded with the chart chunk). */
export type ChartOption = EChartsCoreOption;

/**
 * A grid whose axis labels stay inside the chart: the plot area shrinks until the labels fit in the margins given
 * (ECharts 6's successor of `containLabel`). Fixed margins clipped long parameter names and rotated size names, or
 * let them run into the legend (issue 14).
 */
export function gridWithLabels(margins: { left: number; right: number; top: number; bottom: number }) {
  return { ...margins, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' } as const;
}
