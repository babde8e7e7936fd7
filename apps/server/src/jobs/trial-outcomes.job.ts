import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ trialId: z.uuid(), requestedBy: z.uuid() });

export type TrialOutcomesJobData = z.infer<typeof dataSchema>;

/**
 * Reading a trial's user outcomes again after their definitions changed (TrialService.replaceCustomOutcomes enqueues
 * it with the change; trial-outcomes.performer.ts works it): each finished patient whose values came from an earlier
 * definition is read from its run's saved outputs — nothing is simulated again. Idempotent: a value of the current
 * definition version is not read twice.
 */
export const trialOutcomesJob: JobDescriptor<TrialOutcomesJobData> = {
  kind: 'trial.outcomes',
  retryLimit: 2,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
