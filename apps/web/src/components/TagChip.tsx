import Chip, { type ChipProps } from '@mui/material/Chip';
import CancelIcon from '@mui/icons-material/Cancel';

export interface TagChipProps {
  label: string;
  color?: ChipProps['color'];
  /** Shown: the chip offers a remove button named "Remove <label>". */
  onRemove?: () => void;
  /** Shown: a click on the chip selects it. */
  onClick?: () => void;
  selected?: boolean;
}

/** The tag chip (spec §2 widget 3): a small label, optionally clickable, selected, or removable. */
export function TagChip({ label, color = 'default', onRemove, onClick, selected = false }: TagChipProps) {
  return (
    <Chip
      size="small"
      label={label}
      color={color}
      variant={selected ? 'filled' : 'outlined'}
      onClick={onClick}
      onDelete={onRemove}
      aria-pressed={onClick ? selected : undefined}
      // MUI hides the remove icon from screen readers (the chip answers Delete and Backspace); a name makes it a button too.
      deleteIcon={
        onRemove ? <CancelIcon role="button" aria-hidden={false} aria-label={`Remove ${label}`} /> : undefined
      }
      sx={{ fontWeight: 600, maxWidth: 220 }}
    />
  );
}
