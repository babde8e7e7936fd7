import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import type { Onboarding, OnboardingState } from '@insilico/contracts';
import { ApiError } from '../../lib/apiError';
import { onboardingKey, saveOnboarding } from './api';
import { useStepFlow } from './stepFlow';

type StepAnswer = Partial<Omit<OnboardingState, 'stepActive' | 'stepInfo'>>;

/** The whole state to `PUT` after `step`'s Next: what was saved, this step's answer, the next step active. */
export function stateAfterStep(saved: OnboardingState, step: number, answer: StepAnswer): OnboardingState {
  return {
    ...saved,
    ...answer,
    stepActive: step + 1,
    stepInfo: { ...saved.stepInfo, [`step${step}SavedAt`]: new Date().toISOString() },
  };
}

/**
 * Next on a step: saves the whole state with `PUT /api/onboarding` (the server decides, and its 400
 * message is shown), updates the cached state, then goes to the next step.
 */
export function useSaveStep(step: number, onboarding: Onboarding, beforeNavigate: () => void) {
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const flow = useStepFlow();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(answer: StepAnswer, options: { navigate?: boolean } = {}): Promise<boolean> {
    setSaving(true);
    setError(null);
    try {
      const state = await saveOnboarding(stateAfterStep(onboarding.state, step, answer));
      await mutate(onboardingKey, { ...onboarding, state }, { revalidate: false });
      if (options.navigate !== false) {
        beforeNavigate();
        void navigate(flow.next(step));
      }
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'Your answers could not be saved. Please try again.');
      return false;
    } finally {
      setSaving(false);
    }
  }

  return { save, saving, error, setError };
}
