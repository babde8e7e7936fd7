import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

/** Spec §9 "Graph widgets": the select dropdown is at most 220 px high. */
export const selectDropdownMaxHeight = 220;

export interface SelectOption<T extends string = string> {
  value: T;
  label: string;
  /** Options of one group are listed under its heading. */
  group?: string;
}

export interface SearchableSelectProps<T extends string> {
  label: string;
  options: readonly SelectOption<T>[];
  /** The chosen value, or null for none. */
  value: T | null;
  onChange: (value: T | null) => void;
  placeholder?: string;
  disabled?: boolean;
  width?: number | string;
  /** Spec §8 "Graph widgets": the text of an empty list. */
  noOptionsText?: string;
}

/**
 * The searchable select (spec §2 widget 3): typing filters the options; its dropdown is at most 220 px high and says
 * 'No options' when nothing matches or there is nothing to choose.
 */
export function SearchableSelect<T extends string>({
  label,
  options,
  value,
  onChange,
  placeholder,
  disabled,
  width = 240,
  noOptionsText = 'No options',
}: SearchableSelectProps<T>) {
  const selected = options.find((option) => option.value === value) ?? null;
  const grouped = options.some((option) => option.group !== undefined);
  return (
    <Autocomplete<SelectOption<T>>
      size="small"
      options={options}
      value={selected}
      disabled={disabled}
      onChange={(_event, option) => onChange(option ? option.value : null)}
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(option, current) => option.value === current.value}
      groupBy={grouped ? (option) => option.group ?? '' : undefined}
      noOptionsText={noOptionsText}
      slotProps={{ listbox: { style: { maxHeight: selectDropdownMaxHeight } } }}
      sx={{ width }}
      renderInput={(params) => <TextField {...params} label={label} placeholder={placeholder} />}
    />
  );
}
