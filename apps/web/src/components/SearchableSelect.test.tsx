import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { SearchableSelect } from './SearchableSelect';

const outputs = [
  { value: 'velocity', label: 'Velocity' },
  { value: 'pressure', label: 'Pressure' },
  { value: 'shear_stress', label: 'Shear Stress' },
];

function open(label: string) {
  const input = screen.getByRole('combobox', { name: label });
  fireEvent.mouseDown(input);
  return input;
}

describe('SearchableSelect', () => {
  it('filters the options by the typed text and reports the chosen value', () => {
    const onChange = vi.fn();
    render(<SearchableSelect label="Output" options={outputs} value={null} onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Output' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'press' } });
    const listbox = screen.getByRole('listbox');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Pressure']);
    expect(listbox.style.maxHeight).toBe('220px');
    fireEvent.click(screen.getByRole('option', { name: 'Pressure' }));
    expect(onChange).toHaveBeenCalledWith('pressure');
  });

  it("says 'No options' when there is nothing to choose", () => {
    render(<SearchableSelect label="Output" options={[]} value={null} onChange={() => undefined} />);
    open('Output');
    expect(screen.getByText('No options')).toBeTruthy();
  });

  it('shows the chosen option', () => {
    render(<SearchableSelect label="Output" options={outputs} value="shear_stress" onChange={() => undefined} />);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Output' }).value).toBe('Shear Stress');
  });
});
