import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as exportsModule from '../../exports';
import { ChartCard } from './ChartCard';

// The real chart needs a browser; this stand-in reports an exporter the way EChart does once drawn.
vi.mock('./EChart', () => ({
  default: function FakeChart({ onReady }: { onReady: (toSvg: (() => string) | null) => void }) {
    useEffect(() => onReady(() => '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>'), [onReady]);
    return <div data-testid="echart" />;
  },
}));

afterEach(() => vi.restoreAllMocks());

describe('ChartCard', () => {
  it('says Loading chart... until the chart chunk has loaded (spec §4)', async () => {
    render(<ChartCard title="PDF graph" option={{}} empty={false} />);
    expect(screen.getByText('Loading chart...')).toBeTruthy();
    expect(await screen.findByTestId('echart')).toBeTruthy();
    expect(screen.queryByText('Loading chart...')).toBeNull();
  });

  it('says No graph data instead of an empty chart, and offers no export', () => {
    render(<ChartCard title="Coverage" option={{}} empty />);
    expect(screen.getByText('No graph data')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Coverage as SVG' })).toHaveProperty('disabled', true);
  });

  it('exports the drawn chart as graph.svg unless named otherwise (spec §7)', async () => {
    const download = vi.spyOn(exportsModule, 'downloadSvg').mockImplementation(() => {});
    const { unmount } = render(<ChartCard title="Scatter plot" option={{}} empty={false} />);
    const button = screen.getByRole('button', { name: 'Export Scatter plot as SVG' });
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    await act(() => fireEvent.click(button));
    expect(download).toHaveBeenCalledWith(expect.stringContaining('<path'), 'graph');
    unmount();
    render(<ChartCard title="Heatmap" fileName="correlation-pearson" option={{}} empty={false} />);
    const named = screen.getByRole('button', { name: 'Export Heatmap as SVG' });
    await waitFor(() => expect(named).toHaveProperty('disabled', false));
    fireEvent.click(named);
    expect(download).toHaveBeenLastCalledWith(expect.any(String), 'correlation-pearson');
  });
});
