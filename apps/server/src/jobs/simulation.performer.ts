import { defineJob } from './job-definition';
import { simulationJob } from './simulation.job';

/**
 * Runs a simulation (SimulationService.run): the engine works in a CPU-pool thread, progress goes to the
 * simulation and to job_runs, a cancel ends the thread, and after a crash the run continues from its last stored
 * checkpoint. Idempotent: a finished, failed or cancelled simulation is left as it is.
 */
export const simulationPerformer = defineJob(simulationJob, async ({ data, attempt, signal, progress, services }) =>
  services.simulations.run(data, { attempt, signal, progress }),
);
