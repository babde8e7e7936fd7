import { describe, expect, it } from 'vitest';
import { averageSeries, lineChartOption } from './lineChartOption';
import { seriesColor } from './palette';

const series = [
  { name: 'P1', index: 0, data: [1, 2, 3] },
  { name: 'P2', index: 1, data: [3, null, 5, 8] },
];

type Line = { name: string; data: (number | null)[]; itemStyle: { color: string } };
type Option = { series: Line[]; xAxis: { name: string; data: string[] }; yAxis: { type: string; name: string } };

describe('line chart', () => {
  it('averages the series that have a value at each timestep', () => {
    expect(averageSeries(series)).toEqual([2, 2, 4, 8]);
    expect(averageSeries([])).toEqual([]);
  });

  it("adds the 'average' series and labels x 'Timestep' by default (spec §9)", () => {
    const option = lineChartOption({ series, yLabel: 'Velocity (m/s)', logScale: true, showAverage: true }) as Option;
    expect(option.series.map((s) => s.name)).toEqual(['P1', 'P2', 'average']);
    expect(option.series[2]!.data).toEqual([2, 2, 4, 8]);
    expect(option.xAxis.name).toBe('Timestep');
    expect(option.xAxis.data).toEqual(['1', '2', '3', '4']);
    expect(option.yAxis).toMatchObject({ type: 'log', name: 'Velocity (m/s)' });
  });

  it('colours each series by its index', () => {
    const option = lineChartOption({
      series: [{ name: 'P30', index: 30, data: [1] }],
      yLabel: 'y',
      logScale: false,
      showAverage: false,
    }) as Option;
    expect(option.series).toHaveLength(1);
    expect(option.series[0]!.itemStyle.color).toBe(seriesColor(30));
    expect(option.yAxis.type).toBe('value');
  });

  it('leaves values ≤ 0 out of a log axis', () => {
    const option = lineChartOption({
      series: [{ name: 'P', index: 0, data: [0, -1, 2] }],
      yLabel: 'y',
      logScale: true,
      showAverage: false,
    }) as Option;
    expect(option.series[0]!.data).toEqual([null, null, 2]);
  });
});
