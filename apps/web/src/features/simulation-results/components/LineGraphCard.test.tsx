import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { RenameOutcome } from '../../../components/RenameField';
import type { SelectedParticleItem } from '../types';
import { LineGraphCard } from './LineGraphCard';

// The chart chunk: records what it is given instead of drawing.
const drawn = vi.hoisted(() => ({ props: null as null | { option: unknown; onRestore?: () => void } }));
vi.mock('../../analysis/components/charts/EChart', () => ({
  default: (props: { option: unknown; onRestore?: () => void }) => {
    drawn.props = props;
    return <div data-testid="echart" />;
  },
}));

type Option = { series: { name: string }[]; xAxis: { name: string }; yAxis: { type: string; name: string } };
const option = () => drawn.props!.option as Option;

const particles: SelectedParticleItem[] = [
  { index: 0, name: 'P1', objectName: 'Blood', plotData: [{ output: 'velocity', data: [0.1, 0.2] }] },
  { index: 1, name: 'P2', objectName: 'Blood', plotData: [{ output: 'velocity', data: [0.3, 0.4] }] },
  { index: 2, name: 'P3', objectName: 'Stent', previewImage: '/p3.png', plotData: [] },
];

function Harness({ onRename = async () => 'saved' }: { onRename?: () => Promise<RenameOutcome> }) {
  const [output, setOutput] = useState<string | null>('velocity');
  return (
    <LineGraphCard
      particles={particles}
      outputs={['velocity', 'shear_stress']}
      output={output}
      onOutputChange={setOutput}
      onRenameParticle={onRename}
      fileName="run-7"
    />
  );
}

describe('LineGraphCard', () => {
  it("says 'Loading chart...' until the chart chunk arrives, then draws the lines with the 'average'", async () => {
    render(<Harness />);
    expect(screen.getByText('Loading chart...')).toBeTruthy();
    await screen.findByTestId('echart');
    expect(option().series.map((s) => s.name)).toEqual(['P1', 'P2', 'average']);
    expect(option().xAxis.name).toBe('Timestep');
    expect(option().yAxis).toMatchObject({ type: 'log', name: 'Velocity (m/s)' });
  });

  it('lists the particles grouped by object in a 200 px, two-column area', () => {
    render(<Harness />);
    const list = screen.getByRole('region', { name: 'Selected particles' });
    expect(getComputedStyle(list).height).toBe('200px');
    expect(getComputedStyle(list).columnCount).toBe('2');
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Blood', 'Stent']);
    expect(within(list).getByRole('button', { name: 'Open preview of p3' })).toBeTruthy();
  });

  it("refuses a particle name that exists: 'Particle name already exists'", async () => {
    const onRename = vi.fn<() => Promise<RenameOutcome>>(async () => 'saved');
    render(<Harness onRename={onRename} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename particle P1' }));
    const input = screen.getByRole('textbox', { name: 'Particle name' });
    fireEvent.change(input, { target: { value: 'p2' } });
    expect(screen.getByText('Particle name already exists')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onRename).not.toHaveBeenCalled();
  });

  it('turns the log scale off by the switch and back on by the chart restore button', async () => {
    render(<Harness />);
    await screen.findByTestId('echart');
    fireEvent.click(screen.getByRole('switch', { name: 'Log scale' }));
    expect(option().yAxis.type).toBe('value');
    act(() => drawn.props!.onRestore!());
    expect(option().yAxis.type).toBe('log');
  });

  it("says 'No graph data' for an output no particle has, and 'No options' with nothing to pick", () => {
    const { rerender } = render(
      <LineGraphCard
        particles={particles}
        outputs={[]}
        output="pressure"
        onOutputChange={() => undefined}
        onRenameParticle={async () => 'saved'}
      />,
    );
    expect(screen.getByText('No graph data')).toBeTruthy();
    rerender(
      <LineGraphCard
        particles={particles}
        outputs={[]}
        output={null}
        onOutputChange={() => undefined}
        onRenameParticle={async () => 'saved'}
      />,
    );
    const picker = screen.getByRole('combobox', { name: 'Output' });
    fireEvent.focus(picker);
    fireEvent.mouseDown(picker);
    expect(screen.getByText('No options')).toBeTruthy();
  });
});
