import { useState, type FormEvent } from 'react';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { bodyParts, type BodyPart, type Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { bodyPartError, labelOf } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { StepActions } from './StepActions';

const step = 1;

/** Step 1: the body part; only Heart and thorax can be chosen, the others are shown disabled. */
export function BodyPartStep({ onboarding }: { onboarding: Onboarding }) {
  const saved = onboarding.state.bodyPart;
  const [value, setValue] = useState<BodyPart | null>(saved);
  const [problem, setProblem] = useState<string | null>(null);
  const leave = useLeaveConfirmation(value !== saved);
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = bodyPartError(value);
    setProblem(found);
    if (found || value === null) return;
    void save({ bodyPart: value });
  }

  return (
    <form onSubmit={submit} noValidate>
      <FormControl error={problem !== null}>
        <FormLabel id="body-part-label">Which body part is your device for?</FormLabel>
        <RadioGroup
          aria-labelledby="body-part-label"
          value={value ?? ''}
          onChange={(event) => {
            setValue(event.target.value as BodyPart);
            setProblem(null);
          }}
        >
          {bodyParts.map((part) => (
            <FormControlLabel
              key={part.key}
              value={part.key}
              disabled={!part.enabled}
              control={<Radio />}
              label={part.enabled ? labelOf(part.key) : `${labelOf(part.key)} (not available yet)`}
            />
          ))}
        </RadioGroup>
        {problem && <FormHelperText>{problem}</FormHelperText>}
      </FormControl>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
