import { defineJob } from './job-definition';
import { trialOutcomesJob } from './trial-outcomes.job';

/** Reads a trial's changed user outcomes again from its finished patients' saved outputs (TrialService). */
export const trialOutcomesPerformer = defineJob(trialOutcomesJob, async ({ data, progress, signal, services }) =>
  services.trials.rereadOutcomes(data, { progress, signal }),
);
