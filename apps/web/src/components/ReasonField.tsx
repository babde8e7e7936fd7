import { reasonMaxLength } from '@insilico/contracts';
import TextField from '@mui/material/TextField';

interface ReasonFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Under the field; by default where the reason goes. */
  helperText?: string;
}

/**
 * The "Reason for change" field of every change the server asks a reason for (issue 20: a project's status, the
 * patients excluded from an analysis …): required, several lines, at most the length the server keeps.
 */
export function ReasonField({
  value,
  onChange,
  helperText = 'Kept in the audit trail with the change.',
}: ReasonFieldProps) {
  return (
    <TextField
      label="Reason for change"
      required
      fullWidth
      multiline
      minRows={2}
      margin="normal"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      helperText={helperText}
      slotProps={{ htmlInput: { maxLength: reasonMaxLength } }}
    />
  );
}
