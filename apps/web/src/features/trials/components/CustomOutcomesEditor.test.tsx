import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { CustomOutcome, SimulationKindName } from '@insilico/contracts';
import { CustomOutcomesEditor, forKind, sourceOptions, withSource } from './CustomOutcomesEditor';

const stress: CustomOutcome = {
  source: 'object',
  label: 'Stress',
  field: 'von_mises_stress',
  particles: 'mean',
  over: 'last',
};

describe('the sources a kind offers', () => {
  it('lists the object’s fields, and the monitor planes where blood flows', () => {
    expect(sourceOptions('solid').map((o) => o.value)).toEqual([
      'object:von_mises_stress',
      'object:von_mises_strain',
      'object:displacement',
      'object:velocity',
    ]);
    expect(sourceOptions('fluid').map((o) => o.value)).toContain('plane:downstream:pressure');
  });

  it('keeps the name and the reduction over the run when the source changes, and fits another kind', () => {
    const plane = withSource(stress, 'plane:upstream:flow_rate');
    expect(plane).toEqual({ source: 'plane', label: 'Stress', plane: 'upstream', quantity: 'flow_rate', over: 'last' });
    expect(withSource(plane, 'object:velocity')).toMatchObject({
      source: 'object',
      field: 'velocity',
      particles: 'max',
    });
    expect(forKind([stress, plane], 'fluid')).toEqual([{ ...stress, field: 'velocity' }, plane]);
    expect(forKind([stress], 'solid')).toEqual([stress]);
  });
});

function Harness({ kind }: { kind: SimulationKindName }) {
  const [value, setValue] = useState<CustomOutcome[]>([]);
  return (
    <>
      <CustomOutcomesEditor kind={kind} value={value} onChange={setValue} />
      <output>{JSON.stringify(value)}</output>
    </>
  );
}

describe('CustomOutcomesEditor', () => {
  it('adds, names and removes outcomes up to the limit', () => {
    const { container } = render(<Harness kind="solid" />);
    const add = screen.getByRole('button', { name: 'Add an outcome' });
    fireEvent.click(add);
    fireEvent.change(screen.getByRole('textbox', { name: 'Outcome 1 name' }), { target: { value: 'Stress at end' } });
    expect(JSON.parse(container.querySelector('output')!.textContent)).toEqual([
      { source: 'object', label: 'Stress at end', field: 'von_mises_stress', particles: 'max', over: 'max' },
    ]);
    for (let i = 0; i < 5; i++) fireEvent.click(add);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove outcome 1' }));
    expect(within(container).getAllByRole('textbox')).toHaveLength(5);
    expect((add as HTMLButtonElement).disabled).toBe(false);
  });
});
