import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { HeatmapPlotData, HistogramPlotData } from '../types';
import { HistogramCard, rangeWithMinimum, type HistogramCardProps } from './HistogramCard';

const drawn = vi.hoisted(() => ({
  props: null as null | { option: unknown; height: number; pointerTooltip?: (x: number, y: number) => string | null },
}));
vi.mock('../../analysis/components/charts/EChart', () => ({
  default: (props: { option: unknown; height: number }) => {
    drawn.props = props;
    return <div data-testid="echart" />;
  },
}));

type Option = { xAxis: { name: string }; yAxis: { name: string } };

const histogramData: HistogramPlotData = { data: [3, 1, 0, 2], min: 0, max: 10, binSize: 2.5, timestep: 4 };
const heatmapData: HeatmapPlotData = {
  data: [Uint32Array.from([1, 0]), Uint32Array.from([0, 4])],
  min: 0,
  max: 10,
  binSize: 5,
  timerange: { start: 2, end: 3 },
};

function renderCard(props: Partial<HistogramCardProps> = {}) {
  const onReload = vi.fn();
  const all: HistogramCardProps = {
    objects: ['Blood', 'Stent'],
    selectedObjects: ['Blood'],
    onSelectedObjectsChange: vi.fn(),
    onBodyTypeChange: vi.fn(),
    outputs: ['velocity', 'pressure'],
    output: 'velocity',
    onOutputChange: vi.fn(),
    maxTimestamp: 20,
    plotData: histogramData,
    onReload,
    ...props,
  };
  const view = render(<HistogramCard {...all} />);
  return { ...view, onReload, props: all };
}

const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

describe('HistogramCard', () => {
  it("draws the histogram 542 px high with 'Frequency (particles)' on y and the output's unit on x", async () => {
    renderCard();
    expect(screen.getByText('Loading chart...')).toBeTruthy();
    await screen.findByTestId('echart');
    expect(drawn.props!.height).toBe(542);
    expect((drawn.props!.option as Option).yAxis.name).toBe('Frequency (particles)');
    expect((drawn.props!.option as Option).xAxis.name).toBe('Velocity (m/s)');
  });

  it("starts with body type Solid and output 'Select', and then says 'No graph data'", () => {
    renderCard({ output: undefined, bodyType: undefined });
    expect(screen.getByRole('combobox', { name: 'Body type' }).textContent).toBe('Solid');
    expect(screen.getByRole('combobox', { name: 'Output' }).getAttribute('placeholder')).toBe('Select');
    expect(screen.getByText('No graph data')).toBeTruthy();
  });

  it('shows the timestep slider from 1 to max and sends zero-based timesteps', () => {
    const { onReload } = renderCard();
    const slider = screen.getByRole('slider', { name: 'Timestep' });
    expect(slider.getAttribute('aria-valuemin')).toBe('1');
    expect(slider.getAttribute('aria-valuemax')).toBe('20');
    expect(slider.getAttribute('aria-valuenow')).toBe('5'); // the data's zero-based timestep 4
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'timestep', timestep: 5, bins: { binCount: 50 } });
  });

  it('asks the parent to reload when the toggle is clicked, and follows the kind of data that arrives', async () => {
    const { onReload, rerender, props } = renderCard();
    expect(pressed('Timestep')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Range' }));
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'range', start: 0, end: 19, bins: { binCount: 50 } });
    rerender(<HistogramCard {...props} plotData={heatmapData} />);
    expect(pressed('Range')).toBe('true');
    expect(screen.getByRole('slider', { name: 'First timestep' }).getAttribute('aria-valuenow')).toBe('3');
    expect(screen.getByRole('slider', { name: 'Last timestep' }).getAttribute('aria-valuenow')).toBe('4');
    await screen.findByTestId('echart');
    expect((drawn.props!.option as Option).xAxis.name).toBe('Timestep');
    expect(drawn.props!.pointerTooltip!(4, 7)).toBe('Timestep 4<br/>[5, 10]<br/>4 particles');
    rerender(<HistogramCard {...props} plotData={{ ...histogramData }} />);
    expect(pressed('Timestep')).toBe('true');
  });

  it('hides the toggle and disables the slider when sliders are disabled', () => {
    renderCard({ slidersDisabled: true });
    expect(screen.queryByRole('button', { name: 'Range' })).toBeNull();
    expect(screen.getByRole('slider', { name: 'Timestep' })).toHaveProperty('disabled', true);
  });

  it('clamps the bin size and the amount of bins (spec §5) and ignores an empty bin size', () => {
    const { onReload } = renderCard();
    const size = screen.getByRole('spinbutton', { name: 'Bin size' });
    fireEvent.change(size, { target: { value: '5000' } });
    fireEvent.keyDown(size, { key: 'Enter' });
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'timestep', timestep: 4, bins: { binSize: 999 } });
    fireEvent.change(size, { target: { value: '0.000001' } });
    fireEvent.blur(size);
    // (max − min) / 999 = 10 / 999
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'timestep', timestep: 4, bins: { binSize: 10 / 999 } });
    onReload.mockClear();
    fireEvent.change(size, { target: { value: '' } });
    fireEvent.blur(size);
    fireEvent.change(size, { target: { value: '0' } });
    fireEvent.blur(size);
    expect(onReload).not.toHaveBeenCalled();
    const count = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.change(count, { target: { value: '1200' } });
    fireEvent.blur(count);
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'timestep', timestep: 4, bins: { binCount: 999 } });
    fireEvent.change(count, { target: { value: '0' } });
    fireEvent.blur(count);
    expect(onReload).toHaveBeenLastCalledWith({ mode: 'timestep', timestep: 4, bins: { binCount: 1 } });
  });

  it('shows the selected section with its preview image, and picks objects', () => {
    const { props } = renderCard({ sectionName: 'Aortic root', sectionPreviewImage: '/section.png' });
    expect(screen.getByRole('heading', { name: 'Selected section: Aortic root' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open section aortic root' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('group', { name: 'Objects' })).getByRole('button', { name: 'Stent' }));
    expect(props.onSelectedObjectsChange).toHaveBeenCalledWith(['Blood', 'Stent']);
  });
});

describe('range slider (spec §5: minimum range 1)', () => {
  it('keeps the range at least one step long, zero-based', () => {
    expect(rangeWithMinimum([3, 7], 0, 19)).toEqual([2, 6]);
    expect(rangeWithMinimum([5, 5], 0, 19)).toEqual([4, 5]);
    expect(rangeWithMinimum([5, 5], 1, 19)).toEqual([3, 4]);
    expect(rangeWithMinimum([20, 20], 0, 19)).toEqual([18, 19]);
    expect(rangeWithMinimum([1, 1], 1, 19)).toEqual([0, 1]);
  });
});
