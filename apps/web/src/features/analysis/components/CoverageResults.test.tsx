import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ChartOption } from './charts/chartOption';
import { CoverageResults } from './CoverageResults';

const drawn: ChartOption[] = [];
// The real chart needs a browser: this stand-in keeps the option it was given.
vi.mock('./charts/EChart', () => ({
  default: function FakeChart({ option }: { option: ChartOption }) {
    useEffect(() => void drawn.push(option), [option]);
    return <div data-testid="echart" />;
  },
}));

describe('coverage chart', () => {
  it('keeps its rotated size names inside the chart instead of clipping them at fixed margins', async () => {
    const coverage = { count: 8, n: 10, fraction: 0.8, lower: 0.49, upper: 0.94 };
    render(
      <CoverageResults
        fits={[
          {
            label: 'Sizing 1',
            coverage: { sizes: [{ name: 'Size 23 mm, large annulus', ...coverage }], union: coverage },
          } as never,
        ]}
      />,
    );
    await screen.findByTestId('echart');
    expect(drawn.at(-1)?.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' });
  });
});
