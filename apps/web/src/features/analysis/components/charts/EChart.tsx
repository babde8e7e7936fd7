import { useEffect, useRef } from 'react';
import { BarChart, CustomChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  ToolboxComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import type { ChartOption } from './chartOption';

// Only what the analysis and simulation-result charts use, so the lazily loaded chunk stays small (tree-shaken echarts/core).
echarts.use([
  BarChart,
  CustomChart,
  HeatmapChart,
  LineChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  ToolboxComponent,
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
  /** The toolbox's restore button was pressed (e.g. to put the log scale back on, spec §4 "Charts"). */
  onRestore?: () => void;
  /**
   * The tooltip of the point under the pointer, from its data coordinates: for a chart drawn as one image (the
   * heatmap), whose single item cannot say which cell the pointer is on.
   */
  pointerTooltip?: (x: number, y: number) => string | null;
}

/**
 * One ECharts chart, drawn with the SVG renderer so it exports as SVG exactly as shown. Loaded lazily (ChartCard);
 * this module is the only one that imports echarts.
 */
export default function EChart({ option, height, onReady, onItemClick, onRestore, pointerTooltip }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clickRef = useRef(onItemClick);
  const restoreRef = useRef(onRestore);
  // The data coordinates under the pointer, or null outside the plot area.
  const pointer = useRef<[number, number] | null>(null);
  useEffect(() => {
    clickRef.current = onItemClick;
    restoreRef.current = onRestore;
  }, [onItemClick, onRestore]);

  useEffect(() => {
    if (!element.current) return;
    const instance = echarts.init(element.current, undefined, { renderer: 'svg' });
    chart.current = instance;
    instance.on('click', (event) => {
      const { dataIndex, seriesIndex } = event as { dataIndex?: number; seriesIndex?: number };
      if (dataIndex !== undefined) clickRef.current?.(dataIndex, seriesIndex ?? 0);
    });
    instance.on('restore', () => restoreRef.current?.());
    // Registered before the first setOption, so before the tooltip's own listener: the formatter reads this move.
    instance.getZr().on('mousemove', (event) => {
      const at = [event.offsetX, event.offsetY];
      pointer.current = instance.containPixel({ gridIndex: 0 }, at)
        ? (instance.convertFromPixel({ gridIndex: 0 }, at) as [number, number])
        : null;
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
    const tooltip = pointerTooltip && {
      ...(option.tooltip as object | undefined),
      formatter: () => (pointer.current ? (pointerTooltip(pointer.current[0], pointer.current[1]) ?? '') : ''),
    };
    // No animation: every redraw after an exclusion is immediate, and exports never catch a half-drawn frame.
    instance.setOption({ animation: false, ...option, ...(tooltip ? { tooltip } : {}) }, { notMerge: true });
    onReady(() => instance.renderToSVGString());
  }, [option, onReady, pointerTooltip]);

  return <div ref={element} style={{ width: '100%', height }} data-testid="echart" />;
}
