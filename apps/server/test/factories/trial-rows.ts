import { eq } from 'drizzle-orm';
import { trialPatients, trials } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/**
 * A copy of a trial whose patients all wait for their preparation, written straight into the database (no job
 * queued): "running" for the API, for suites that cancel a trial without running one (the running is
 * trials.api.test.ts's).
 */
export async function insertWaitingTrial(server: TestServer, like: string): Promise<string> {
  const orm = server.context.db.orm;
  const [source] = await orm.select().from(trials).where(eq(trials.id, like));
  const { id: _id, createdAt: _createdAt, cancelledAt: _cancelledAt, basedOnTrialId: _basedOn, ...copy } = source!;
  const [row] = await orm
    .insert(trials)
    .values({ ...copy, name: `${copy.name} waiting ${Math.random().toString(36).slice(2, 6)}` })
    .returning({ id: trials.id });
  const patients = await orm.select().from(trialPatients).where(eq(trialPatients.trialId, like));
  await orm.insert(trialPatients).values(
    patients.map((patient) => ({
      trialId: row!.id,
      patientId: patient.patientId,
      patientIndex: patient.patientIndex,
    })),
  );
  return row!.id;
}
