import { createContext, useContext } from 'react';
import { completePath, pathOfStep } from './steps';

/**
 * Where the step pages lead. The onboarding and Add device (spec §2) share the step components and
 * the saved state; they differ only in their routes (Add device has no company step) and in where
 * the new workspace opens.
 */
export interface StepFlow {
  /** The page Next leads to after `step` (1–5) was saved. */
  next(step: number): string;
  /** The page Back leads to from `step`, or null on the first page. */
  back(step: number): string | null;
  /** Where Finish leads once the workspace exists. */
  completePath: string;
}

export const onboardingFlow: StepFlow = {
  next: (step) => pathOfStep(step + 1),
  back: (step) => (step > 1 ? pathOfStep(step - 1) : null),
  completePath,
};

export const StepFlowContext = createContext<StepFlow>(onboardingFlow);

/** The flow the step pages are shown in: the onboarding unless a page provides another. */
export function useStepFlow(): StepFlow {
  return useContext(StepFlowContext);
}
