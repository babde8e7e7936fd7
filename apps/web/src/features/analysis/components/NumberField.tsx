import { useState } from 'react';
import TextField from '@mui/material/TextField';

interface NumberFieldProps {
  label: string;
  value: number | null;
  /** Called with the typed number on blur or Enter; empty gives null when `allowEmpty`, else the old value stays. */
  onCommit: (value: number | null) => void;
  allowEmpty?: boolean;
  disabled?: boolean;
  step?: number;
  min?: number;
  max?: number;
  helperText?: string;
  width?: number;
}

/** A number typed freely and committed on blur or Enter (so a half-typed value never recalculates). */
export function NumberField({
  label,
  value,
  onCommit,
  allowEmpty = false,
  disabled,
  step,
  min,
  max,
  helperText,
  width = 140,
}: NumberFieldProps) {
  // The text being typed; null shows the committed value (so a saved or moved value always shows).
  const [text, setText] = useState<string | null>(null);
  const commit = () => {
    if (text === null) return;
    const trimmed = text.trim();
    setText(null);
    if (trimmed === '') {
      if (allowEmpty) onCommit(null);
      return;
    }
    const parsed = Number(trimmed);
    if (Number.isFinite(parsed)) onCommit(parsed);
  };
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={text ?? (value === null ? '' : String(value))}
      disabled={disabled}
      helperText={helperText}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      slotProps={{ htmlInput: { step, min, max } }}
      sx={{ width }}
    />
  );
}
