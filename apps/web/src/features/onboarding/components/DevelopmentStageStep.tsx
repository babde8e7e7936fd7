import { useState, type FormEvent } from 'react';
import type { DevelopmentStage, Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { developmentStagesError } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { DevelopmentStageFields, sameStages } from './DevelopmentStageFields';
import { StepActions } from './StepActions';

const step = 2;

/** Step 2: the development stage(s); animal testing is shown as not available. */
export function DevelopmentStageStep({ onboarding }: { onboarding: Onboarding }) {
  const saved = onboarding.state.developmentPhase ?? [];
  const [value, setValue] = useState<DevelopmentStage[]>(saved);
  const [problem, setProblem] = useState<string | null>(null);
  const leave = useLeaveConfirmation(!sameStages(value, saved));
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = developmentStagesError(value);
    setProblem(found);
    if (found) return;
    void save({ developmentPhase: value });
  }

  return (
    <form onSubmit={submit} noValidate>
      <DevelopmentStageFields
        value={value}
        problem={problem}
        onChange={(next) => {
          setProblem(null);
          setValue(next);
        }}
      />
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
