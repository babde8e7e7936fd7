import type { EChartsCoreOption } from 'echarts/core';

/** An ECharts option (a type only: the library itself is loaded with the chart chunk). */
export type ChartOption = EChartsCoreOption;
