import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ChartOption } from './charts/chartOption';
import { CorrelationBlock } from './CorrelationBlock';

const drawn: ChartOption[] = [];
// The real chart needs a browser: this stand-in keeps the option it was given.
vi.mock('./charts/EChart', () => ({
  default: function FakeChart({ option }: { option: ChartOption }) {
    useEffect(() => void drawn.push(option), [option]);
    return <div data-testid="echart" />;
  },
}));

describe('correlation heatmap', () => {
  it('keeps its long, rotated parameter names inside the chart instead of clipping them at fixed margins', async () => {
    const keys = ['annulus_perimeter_derived_diameter', 'sinotubular_junction_height', 'lvot_area'];
    const r = [1, 0.3, -0.2, 0.3, 1, 0.1, -0.2, 0.1, 1];
    const matrix = { size: 3, r, p: r.map(() => 0.5) };
    render(
      <CorrelationBlock
        outcome={
          {
            parameters: keys,
            rows: [0, 1, 2],
            analysis: { pearson: matrix, spearman: matrix, flaggedPearson: [], flaggedSpearman: [] },
          } as never
        }
        table={{ patients: ['a', 'b', 'c'], parameters: keys.map((key) => ({ key })), values: [[], [], []] } as never}
        draft={{ settings: { correlationThreshold: 0.9, alpha: 0.001 } } as never}
        parameterOf={new Map()}
        canEdit={false}
        exclude={() => undefined}
        recalculating={false}
      />,
    );
    await screen.findAllByTestId('echart');
    const heatmap = drawn.find((option) => JSON.stringify(option).includes('heatmap'));
    expect(heatmap?.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' });
  });
});
