import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { CohortCriteria } from '@insilico/anatomy';
import { cohortDescriptionMaxLength, cohortNameMaxLength, cohortNameWarning, type Cohort } from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { orderCohort } from '../api';
import { orderableSizes } from '../criteriaState';

export interface OrderDetails {
  name: string;
  description: string;
  size: number | null;
}

interface OrderDetailsFormProps {
  deviceId: string;
  criteria: CohortCriteria;
  /** Patients matching the criteria (null while counting). */
  matching: number | null;
  details: OrderDetails;
  onDetailsChange: (details: Partial<OrderDetails>) => void;
  onOrdered: (cohort: Cohort) => void;
  onBack?: () => void;
}

/** Number of patients, name (with the spec's warning) and description; places the order. */
export function OrderDetailsForm(props: OrderDetailsFormProps) {
  const { deviceId, criteria, matching, details, onDetailsChange, onOrdered, onBack } = props;
  const [nameError, setNameError] = useState<string | null>(null);
  const [sizeError, setSizeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ordering, setOrdering] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const name = details.name.trim();
    setError(null);
    const missingName = name === '' ? 'Give the patient cohort a name.' : null;
    const missingSize = details.size === null ? 'Choose how many patients the cohort has.' : null;
    setNameError(missingName);
    setSizeError(missingSize);
    if (missingName || missingSize || details.size === null) return;
    setOrdering(true);
    try {
      const cohort = await orderCohort(deviceId, {
        name,
        description: details.description.trim(),
        size: details.size,
        criteria,
      });
      onOrdered(cohort);
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'cohort_name_taken') setNameError(caught.message);
      else setError(caught instanceof ApiError ? caught.message : 'The order could not be placed. Please try again.');
      setOrdering(false);
    }
  }

  return (
    <Stack component="form" spacing={2.5} onSubmit={(event) => void submit(event)} noValidate sx={{ maxWidth: 720 }}>
      <div>
        <Typography id="cohort-size" variant="subtitle2" sx={{ mb: 1 }}>
          Number of patients
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={details.size}
          aria-labelledby="cohort-size"
          onChange={(_event, size: number | null) => {
            if (size !== null) {
              onDetailsChange({ size });
              setSizeError(null);
            }
          }}
        >
          {orderableSizes(matching).map(({ size, enabled }) => (
            <ToggleButton key={size} value={size} disabled={!enabled} aria-label={`${size} patients`}>
              {size}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography variant="caption" component="p" color={sizeError ? 'error' : 'text.secondary'} sx={{ mt: 0.5 }}>
          {sizeError ??
            (matching !== null && matching < 100
              ? `Sizes above the ${matching} matching patients cannot be ordered.`
              : 'Patients are drawn as a stratified random sample of the matching patients.')}
        </Typography>
      </div>
      <TextField
        label="Cohort name"
        value={details.name}
        required
        onChange={(event) => {
          onDetailsChange({ name: event.target.value });
          setNameError(null);
        }}
        error={nameError !== null}
        helperText={nameError ?? cohortNameWarning}
        slotProps={{ htmlInput: { maxLength: cohortNameMaxLength } }}
      />
      <TextField
        label="Description"
        value={details.description}
        onChange={(event) => onDetailsChange({ description: event.target.value })}
        multiline
        minRows={3}
        helperText="What the cohort is for, e.g. the question it should answer."
        slotProps={{ htmlInput: { maxLength: cohortDescriptionMaxLength } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1.5}>
        {onBack && (
          <Button variant="text" onClick={onBack} disabled={ordering}>
            Back
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={ordering}>
          {ordering ? 'Ordering…' : 'Order cohort'}
        </Button>
      </Stack>
    </Stack>
  );
}
