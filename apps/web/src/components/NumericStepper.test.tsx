import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { NumericStepper } from './NumericStepper';

function Harness({ onChange, min = 1, max = 999 }: { onChange: (value: number) => void; min?: number; max?: number }) {
  const [value, setValue] = useState(10);
  return (
    <NumericStepper
      label="Amount of bins"
      kind="integer"
      value={value}
      min={min}
      max={max}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('NumericStepper', () => {
  it('clamps a typed value on Enter', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.change(input, { target: { value: '5000' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith(999);
    expect((input as HTMLInputElement).value).toBe('999');
  });

  it('turns empty text into the min on blur', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(1);
  });

  it('turns non-numeric text into 0 when the min is negative', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} min={-5} max={50} />);
    const input = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.change(input, { target: { value: 'many' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(0);
  });

  it('steps with the arrow keys within bounds', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} min={9} max={11} />);
    const input = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(onChange).toHaveBeenLastCalledWith(11);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(onChange).toHaveBeenLastCalledWith(9);
    expect(screen.getByRole('button', { name: 'Decrease Amount of bins' })).toHaveProperty('disabled', true);
  });

  it('parses integers for the integer type', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('spinbutton', { name: 'Amount of bins' });
    fireEvent.change(input, { target: { value: '12.9' } });
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(12);
  });
});
