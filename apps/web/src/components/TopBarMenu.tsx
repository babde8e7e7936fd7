import type { ReactNode } from 'react';
import Menu from '@mui/material/Menu';

export interface TopBarMenuProps {
  id: string;
  /** The button the menu opens from; null: closed. */
  anchor: HTMLElement | null;
  onClose: () => void;
  minWidth: number;
  maxWidth?: number;
  children: ReactNode;
}

/** A menu of the top bar: below its button, right-aligned, in the top bar's outlined, rounded look. */
export function TopBarMenu({ id, anchor, onClose, minWidth, maxWidth, children }: TopBarMenuProps) {
  return (
    <Menu
      id={id}
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          variant: 'outlined',
          sx: { mt: 1, minWidth, maxWidth, borderRadius: 3, boxShadow: '0 12px 32px rgba(27, 37, 51, 0.14)' },
        },
      }}
    >
      {children}
    </Menu>
  );
}
