import { useState, type FormEvent } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { developmentStages, type DevelopmentStage, type Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { developmentStagesError, labelOf } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { StepActions } from './StepActions';

const step = 2;

function sameStages(a: readonly DevelopmentStage[], b: readonly DevelopmentStage[]): boolean {
  return a.length === b.length && a.every((stage) => b.includes(stage));
}

/** Step 2: the development stage(s); animal testing is shown as not available. */
export function DevelopmentStageStep({ onboarding }: { onboarding: Onboarding }) {
  const saved = onboarding.state.developmentPhase ?? [];
  const [value, setValue] = useState<DevelopmentStage[]>(saved);
  const [problem, setProblem] = useState<string | null>(null);
  const leave = useLeaveConfirmation(!sameStages(value, saved));
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  function toggle(stage: DevelopmentStage, checked: boolean) {
    setProblem(null);
    setValue((current) =>
      checked
        ? developmentStages.map((known) => known.key).filter((key) => key === stage || current.includes(key))
        : current.filter((key) => key !== stage),
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = developmentStagesError(value);
    setProblem(found);
    if (found) return;
    void save({ developmentPhase: value });
  }

  return (
    <form onSubmit={submit} noValidate>
      <FormControl component="fieldset" error={problem !== null}>
        <FormLabel component="legend">In which development stage is your device? Choose one or more.</FormLabel>
        <FormGroup>
          {developmentStages.map((stage) => (
            <FormControlLabel
              key={stage.key}
              disabled={!stage.available}
              control={
                <Checkbox
                  checked={value.includes(stage.key)}
                  onChange={(event) => toggle(stage.key, event.target.checked)}
                />
              }
              label={stage.available ? labelOf(stage.key) : `${labelOf(stage.key)} (not available)`}
            />
          ))}
        </FormGroup>
        {problem && <FormHelperText>{problem}</FormHelperText>}
      </FormControl>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
