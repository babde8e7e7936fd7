import { useEffect, useRef } from 'react';
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { ChartOption } from './chartOption';

// Only what the analysis charts use, so the lazily loaded chunk stays small (tree-shaken echarts/core).
echarts.use([
  BarChart,
  CustomChart,
  HeatmapChart,
  LineChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  SVGRenderer,
]);

export interface EChartProps {
  option: ChartOption;
  height: number;
  /** Called once the chart is drawn, with a way to export it as an SVG document. */
  onReady: (toSvg: (() => string) | null) => void;
  /** A click on a data item (e.g. a point of the scatter plot). */
  onItemClick?: (dataIndex: number, seriesIndex: number) => void;
}

/**
 * One ECharts chart, drawn with the SVG renderer so it exports as SVG exactly as shown. Loaded lazily (ChartCard);
 * this module is the only one that imports echarts.
 */
export default function EChart({ option, height, onReady, onItemClick }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clickRef = useRef(onItemClick);
  useEffect(() => {
    clickRef.current = onItemClick;
  }, [onItemClick]);

  useEffect(() => {
    if (!element.current) return;
    const instance = echarts.init(element.current, undefined, { renderer: 'svg' });
    chart.current = instance;
    instance.on('click', (event) => {
      const { dataIndex, seriesIndex } = event as { dataIndex?: number; seriesIndex?: number };
      if (dataIndex !== undefined) clickRef.current?.(dataIndex, seriesIndex ?? 0);
    });
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
      onReady(null);
    };
    // The chart is created once; options flow in below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    // No animation: every redraw after an exclusion is immediate, and exports never catch a half-drawn frame.
    instance.setOption({ animation: false, ...option }, { notMerge: true });
    onReady(() => instance.renderToSVGString());
  }, [option, onReady]);

  return <div ref={element} style={{ width: '100%', height }} data-testid="echart" />;
}
