import { simulations } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/**
 * A simulation row of a room, written straight into the database in the given state (no case stored, no job
 * queued): for suites that rename, cancel or delete a simulation without running one (the running is
 * simulations.api.test.ts's).
 */
export async function insertSimulation(
  server: TestServer,
  input: { projectId: string; roomId: string; name: string; status: 'queued' | 'running' | 'failed' | 'completed' },
): Promise<string> {
  const [row] = await server.context.db.orm
    .insert(simulations)
    .values({
      projectId: input.projectId,
      roomId: input.roomId,
      kind: 'fluid',
      name: input.name,
      parameters: {},
      resolution: 'test',
      phase: 'mean',
      status: input.status,
      endTime: 0.1,
      estimate: { resolution: 'test', dp_mm: 1, particles: 1000, endTime_s: 0.1, steps: 100, seconds: 5 },
      scenarioVersion: 'test',
      region: 'eu',
      storagePrefix: `simulations/test-${Math.random().toString(36).slice(2)}`,
    })
    .returning({ id: simulations.id });
  return row!.id;
}
