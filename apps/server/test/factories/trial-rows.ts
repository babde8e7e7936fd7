import type { TestServer } from '../helpers/test-server';
import { cohorts, projectCohorts, trials } from '../../src/db/schema';

/**
 * A trial row of the project on a cohort row that is never ordered (no patients, no job): for suites that only need
 * "a trial of the project" (the audit coverage's delete), not a fan-out. Answers the trial's id.
 */
export async function insertTrialRow(
  server: TestServer,
  input: { deviceId: string; projectId: string; name: string; createdBy: string },
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
  const [trial] = await orm
    .insert(trials)
    .values({
      projectId: input.projectId,
      cohortId: cohort!.id,
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
