import { useId, useState, type ReactNode } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';

export interface DropdownMenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  disabled?: boolean;
}

export interface DropdownMenuButtonProps {
  /** The button's text. */
  label: string;
  items: readonly DropdownMenuItem[];
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  disabled?: boolean;
  startIcon?: ReactNode;
}

/**
 * The dropdown menu button (spec §2 widget 3): a button that opens a menu of actions; choosing one closes the menu
 * and runs it. Escape or a click outside closes the menu without choosing.
 */
export function DropdownMenuButton({
  label,
  items,
  variant = 'outlined',
  size = 'small',
  disabled,
  startIcon,
}: DropdownMenuButtonProps) {
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  return (
    <>
      <Button
        id={`${id}-button`}
        variant={variant}
        size={size}
        disabled={disabled || items.length === 0}
        startIcon={startIcon}
        endIcon={<ArrowDropDownIcon aria-hidden="true" />}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {label}
      </Button>
      <Menu
        id={`${id}-menu`}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': `${id}-button` } }}
      >
        {items.map((item) => (
          <MenuItem
            key={item.label}
            disabled={item.disabled}
            onClick={() => {
              setAnchor(null);
              item.onSelect();
            }}
          >
            {item.icon && <ListItemIcon>{item.icon}</ListItemIcon>}
            <ListItemText>{item.label}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
