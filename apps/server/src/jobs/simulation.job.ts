import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({
  simulationId: z.uuid(),
  /** The user whose browser had the analytics consent cookie when the run was queued: the server's event is theirs. */
  analyticsUserId: z.uuid().optional(),
});

export type SimulationJobData = z.infer<typeof dataSchema>;

/**
 * One simulation run (SimulationService enqueues it on create and retry; simulation.performer.ts works it). Retried
 * twice after a crash or an engine error; the run continues from its last stored checkpoint (every kind).
 */
export const simulationJob: JobDescriptor<SimulationJobData> = {
  kind: 'simulation.run',
  retryLimit: 2,
  // pg-boss's longest (24 h is its ceiling, exclusive); a dead worker is noticed by its heartbeat long before.
  expireInSeconds: 23 * 60 * 60,
  parse: (data) => dataSchema.parse(data),
};
