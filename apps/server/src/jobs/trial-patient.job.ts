import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ trialId: z.uuid(), patientId: z.string().min(1).max(40) });

export type TrialPatientJobData = z.infer<typeof dataSchema>;

/**
 * One patient of a trial (TrialService enqueues one per patient on create and retry; trial-patient.performer.ts works
 * it): places the device by the trial's rule, makes the patient's room and its simulation (whose own `simulation.run`
 * job then runs it), or reads the outcomes of a finished run again. Idempotent: what is recorded is not done twice.
 */
export const trialPatientJob: JobDescriptor<TrialPatientJobData> = {
  kind: 'trial.patient',
  retryLimit: 2,
  expireInSeconds: 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
