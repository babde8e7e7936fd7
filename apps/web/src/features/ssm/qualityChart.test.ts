import { describe, expect, it } from 'vitest';
import { qualityChartOption } from './qualityChart';

describe('SSM quality chart', () => {
  it('draws compactness in % on the left axis, the distances in mm on the right, and marks the modes kept', () => {
    const option = qualityChartOption({
      compactness: [0.6, 0.9, 0.97],
      generalisation: [1.2, 0.8],
      specificity: [0.5, 0.6, 0.7],
      modesKept: 3,
    }) as { series: { name: string; yAxisIndex: number; data: unknown[]; markLine?: { data: unknown[] } }[] };
    const [compactness, generalisation, specificity] = option.series;
    expect(compactness).toMatchObject({
      yAxisIndex: 0,
      data: [
        [1, 60],
        [2, 90],
        [3, 97],
      ],
    });
    expect(compactness!.markLine!.data).toEqual([{ xAxis: 3 }]);
    // Leave-one-out needs a shape left: a missing value is a gap, not a zero.
    expect(generalisation).toMatchObject({
      yAxisIndex: 1,
      data: [
        [1, 1.2],
        [2, 0.8],
        [3, null],
      ],
    });
    expect(specificity!.data).toEqual([
      [1, 0.5],
      [2, 0.6],
      [3, 0.7],
    ]);
  });
});
