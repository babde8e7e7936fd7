import { eq } from 'drizzle-orm';
import { cohorts, projectCohorts, trialPatients, trials } from '../../src/db/schema';
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

/**
 * A trial row of the project (no patients, no job) on a cohort row that is never ordered, or on the project's cohort
 * `cohortId` when given: for suites that only need "a trial of the project" (the audit coverage's delete, an analysis
 * using its outcomes), not a fan-out. Answers the trial's id.
 */
export async function insertTrialRow(
  server: TestServer,
  input: { deviceId: string; projectId: string; name: string; createdBy: string; cohortId?: string },
): Promise<string> {
  const orm = server.context.db.orm;
  const cohortId = input.cohortId ?? (await insertUnorderedCohort(server, input));
  const [trial] = await orm
    .insert(trials)
    .values({
      projectId: input.projectId,
      cohortId,
      deviceVersionName: 'Version 1',
      name: input.name,
      kind: 'solid',
      resolution: 'test',
      parameters: {},
      placement: { landmark: 'aortic_annulus', depth_mm: 0, annulusRange_mm: null },
      createdBy: input.createdBy,
    })
    .returning({ id: trials.id });
  return trial!.id;
}

async function insertUnorderedCohort(
  server: TestServer,
  input: { deviceId: string; projectId: string; name: string },
): Promise<string> {
  const orm = server.context.db.orm;
  const [cohort] = await orm
    .insert(cohorts)
    .values({
      deviceId: input.deviceId,
      name: `${input.name} cohort`,
      criteria: {},
      size: 5,
      populationSeed: 1,
      populationSize: 0,
      modelVersion: 'test',
      meshModelVersion: 'test',
      sampleSeed: 1,
      matchingAtOrder: 0,
    })
    .returning({ id: cohorts.id });
  await orm.insert(projectCohorts).values({ projectId: input.projectId, cohortId: cohort!.id });
  return cohort!.id;
}
