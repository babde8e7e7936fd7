import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DropdownMenuButton } from './DropdownMenuButton';

describe('DropdownMenuButton', () => {
  it('opens its menu and runs the chosen action, then closes', async () => {
    const csv = vi.fn();
    const vtp = vi.fn();
    render(
      <DropdownMenuButton
        label="Download"
        items={[
          { label: 'CSV', onSelect: csv },
          { label: 'VTP', onSelect: vtp },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Download' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(screen.getByRole('menu', { name: 'Download' })).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'VTP' }));
    expect(vtp).toHaveBeenCalledTimes(1);
    expect(csv).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('closes on Escape without choosing', async () => {
    const csv = vi.fn();
    render(<DropdownMenuButton label="Download" items={[{ label: 'CSV', onSelect: csv }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(csv).not.toHaveBeenCalled();
  });

  it('keeps a disabled item from running', () => {
    const csv = vi.fn();
    render(<DropdownMenuButton label="Download" items={[{ label: 'CSV', onSelect: csv, disabled: true }]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByRole('menuitem', { name: 'CSV' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('is disabled without items', () => {
    render(<DropdownMenuButton label="Download" items={[]} />);
    expect(screen.getByRole('button', { name: 'Download' })).toHaveProperty('disabled', true);
  });
});
