import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import { clampToBounds, commitText, stepValue, typedOrIgnored, type NumericKind } from './numericStepperRules';

export interface NumericStepperProps {
  label: string;
  value: number;
  /** Called with a committed value: always a number within the bounds. */
  onChange: (value: number) => void;
  min?: number;
  max?: number;
  step?: number;
  /** 'integer' parses integers (spec §5). */
  kind?: NumericKind;
  disabled?: boolean;
  width?: number;
  helperText?: string;
  /**
   * Empty, zero or non-numeric text keeps the value shown instead of becoming the min (spec §5 "Bin size: empty or
   * zero is ignored").
   */
  ignoreEmptyOrZero?: boolean;
}

/**
 * The numeric stepper input (spec §2 widget 3, §5): text typed freely is committed on blur or Enter, clamped to min
 * and max; empty or non-numeric text becomes the min (0 if the min is negative); arrow keys and the − / + buttons
 * step by `step` within the bounds.
 */
export function NumericStepper({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  kind = 'decimal',
  disabled,
  width = 160,
  helperText,
  ignoreEmptyOrZero = false,
}: NumericStepperProps) {
  const bounds = { min, max };
  // The text being typed; null shows the committed value.
  const [text, setText] = useState<string | null>(null);
  const commit = () => {
    if (text === null) return;
    setText(null);
    let next = commitText(text, kind, bounds);
    if (ignoreEmptyOrZero) {
      const typed = typedOrIgnored(text, kind);
      if (typed === null) return;
      next = clampToBounds(typed, bounds);
    }
    if (next !== value) onChange(next);
  };
  const stepBy = (direction: 1 | -1) => {
    // A half-typed value is the start of the step, as the user sees it.
    const from = text === null ? value : commitText(text, kind, bounds);
    setText(null);
    const next = stepValue(from, direction, step, kind, bounds);
    if (next !== value) onChange(next);
  };
  return (
    <TextField
      size="small"
      label={label}
      value={text ?? String(value)}
      disabled={disabled}
      helperText={helperText}
      onChange={(event) => setText(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
        else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
          event.preventDefault();
          stepBy(event.key === 'ArrowUp' ? 1 : -1);
        }
      }}
      sx={{ width }}
      slotProps={{
        htmlInput: {
          inputMode: kind === 'integer' ? 'numeric' : 'decimal',
          role: 'spinbutton',
          'aria-valuenow': value,
          'aria-valuemin': min,
          'aria-valuemax': max,
        },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <IconButton
                size="small"
                edge="start"
                aria-label={`Decrease ${label}`}
                disabled={disabled || (min !== undefined && value <= min)}
                onClick={() => stepBy(-1)}
              >
                <RemoveIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                size="small"
                edge="end"
                aria-label={`Increase ${label}`}
                disabled={disabled || (max !== undefined && value >= max)}
                onClick={() => stepBy(1)}
              >
                <AddIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
