import { defineJob } from './job-definition';
import { trialPatientJob } from './trial-patient.job';

/** Prepares one patient of a trial (TrialService.preparePatient): placement by rule, room, simulation. */
export const trialPatientPerformer = defineJob(trialPatientJob, async ({ data, services }) =>
  services.trials.preparePatient(data),
);
