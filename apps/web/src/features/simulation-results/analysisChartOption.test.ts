import { describe, expect, it } from 'vitest';
import { heatmapOption, heatmapTooltip, histogramOption } from './analysisChartOption';

const histogramData = { data: [4, 0, 1], min: 0, max: 3, binSize: 1, timestep: 2 };
const heatmapData = {
  data: [Uint32Array.from([1, 2]), Uint32Array.from([0, 5])],
  min: 0,
  max: 1,
  binSize: 0.5,
  timerange: { start: 3, end: 4 },
};

type Axis = { name: string; type: string; data?: string[] };
type Option = {
  xAxis: Axis;
  yAxis: Axis;
  series: { data: unknown[] }[];
  tooltip: { formatter: (p: { dataIndex: number }[]) => string };
};

describe('histogram option', () => {
  it("labels y 'Frequency (particles)' and x the output, bins as half-open ranges with the last closed", () => {
    const option = histogramOption(histogramData, 'Velocity (m/s)', false) as Option;
    expect(option.yAxis).toMatchObject({ name: 'Frequency (particles)', type: 'value' });
    expect(option.xAxis.name).toBe('Velocity (m/s)');
    expect(option.xAxis.data).toEqual(['[0, 1)', '[1, 2)', '[2, 3]']);
    expect(option.tooltip.formatter([{ dataIndex: 2 }])).toBe('[2, 3]<br/>1 particle');
  });

  it('draws empty bins as nothing on the log axis', () => {
    const option = histogramOption(histogramData, 'v', true) as Option;
    expect(option.yAxis.type).toBe('log');
    expect(option.series[0]!.data).toEqual([4, null, 1]);
  });
});

describe('heatmap option', () => {
  it("labels x 'Timestep' and spans the range shown from 1", () => {
    const option = heatmapOption(heatmapData, 'Pressure (Pa)', null) as Option & {
      xAxis: { min: number; max: number };
    };
    expect(option.xAxis).toMatchObject({ name: 'Timestep', min: 3.5, max: 5.5 });
    expect(option.yAxis.name).toBe('Pressure (Pa)');
  });

  it('tells the timestep, the bin range and the count under the pointer', () => {
    expect(heatmapTooltip(heatmapData, 5, 0.75)).toBe('Timestep 5<br/>[0.5, 1]<br/>5 particles');
    expect(heatmapTooltip(heatmapData, 4, 0.1)).toBe('Timestep 4<br/>[0, 0.5)<br/>1 particle');
    expect(heatmapTooltip(heatmapData, 9, 0.1)).toBeNull();
  });
});
