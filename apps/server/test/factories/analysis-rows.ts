import { eq } from 'drizzle-orm';
import type { TestServer } from '../helpers/test-server';
import { cohortPatients, cohorts, deviceVersions } from '../../src/db/schema';

/** Rows the analysis suites need, written straight into the database. */

/** A copy of a cohort's row that stays in progress (its order never runs): for the "not ready" refusals. */
export async function insertCohortInProgress(server: TestServer, like: string): Promise<string> {
  const orm = server.context.db.orm;
  const [source] = await orm.select().from(cohorts).where(eq(cohorts.id, like));
  const { id: _id, readyAt: _readyAt, jobId: _jobId, ...copy } = source!;
  const [row] = await orm
    .insert(cohorts)
    .values({ ...copy, name: `${copy.name} pending ${Math.random().toString(36).slice(2, 6)}`, status: 'in_progress' })
    .returning({ id: cohorts.id });
  return row!.id;
}

/**
 * A ready copy of a ready cohort (its row and its stored patients; meshes are built on first view): for suites that add
 * and remove cohorts without waiting for another order job.
 */
export async function copyReadyCohort(server: TestServer, like: string): Promise<string> {
  const orm = server.context.db.orm;
  const [source] = await orm.select().from(cohorts).where(eq(cohorts.id, like));
  const { id: _id, jobId: _jobId, ...copy } = source!;
  const [row] = await orm
    .insert(cohorts)
    .values({ ...copy, name: `${copy.name} copy ${Math.random().toString(36).slice(2, 6)}` })
    .returning({ id: cohorts.id });
  const patients = await orm.select().from(cohortPatients).where(eq(cohortPatients.cohortId, like));
  await orm.insert(cohortPatients).values(patients.map((patient) => ({ ...patient, cohortId: row!.id })));
  return row!.id;
}

/** A ready device version row of the workspace (uploading and processing are the device-version suites'). */
export async function insertReadyVersion(server: TestServer, deviceId: string): Promise<string> {
  const [row] = await server.context.db.orm
    .insert(deviceVersions)
    .values({ deviceId, name: `Version ${Math.random().toString(36).slice(2, 8)}`, status: 'ready' })
    .returning({ id: deviceVersions.id });
  return row!.id;
}
