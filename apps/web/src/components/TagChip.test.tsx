import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { TagChip } from './TagChip';

describe('TagChip', () => {
  it('shows its label', () => {
    render(<TagChip label="Aortic root" />);
    expect(screen.getByText('Aortic root')).toBeTruthy();
  });

  it('offers a remove button when removable', () => {
    const onRemove = vi.fn();
    render(<TagChip label="Aortic root" onRemove={onRemove} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Aortic root' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
  });

  it('reports a click and its selected state when clickable', () => {
    const onClick = vi.fn();
    render(<TagChip label="Stent" onClick={onClick} selected />);
    const chip = screen.getByRole('button', { name: 'Stent' });
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(chip);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
