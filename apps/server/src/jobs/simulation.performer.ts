import { defineJob } from './job-definition';
import { simulationJob } from './simulation.job';

/**
 * Runs a simulation (SimulationService.run): the engine works in a CPU-pool thread, progress goes to the
 * simulation and to job_runs, a cancel ends the thread, and after a crash the run continues from its last stored
 * checkpoint. Idempotent: a finished, failed or cancelled simulation is left as it is. A trial patient's run then has
 * its outcomes read (TrialService.simulationFinished; again after a crash, until they are stored). A completed run
 * records the analytics event 'simulation completed' for the user who consented (stored once, whatever the retries).
 */
export const simulationPerformer = defineJob(simulationJob, async ({ data, attempt, signal, progress, services }) => {
  const result = await services.simulations.run(data, { attempt, signal, progress });
  await services.trials.simulationFinished(data.simulationId);
  // Product analytics (issue 21): the completion is the server's event, recorded only with the starter's consent.
  if (result.status === 'completed' && data.analyticsUserId)
    await services.analytics.simulationCompleted(data.analyticsUserId, data.simulationId);
  return result;
});
