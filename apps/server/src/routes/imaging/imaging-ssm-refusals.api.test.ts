import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssms } from '../../db/schema';
import { imagingProjectWorld } from '../../../test/fixtures/imaging-project';
import { errorOf, type Person } from '../../../test/fixtures/workspace.fixtures';
import type { TestServer } from '../../../test/helpers/test-server';

// Issue 19: an SSM on an imaging cohort is not built yet (the model builder pairs points by shared topology only):
// the server says so in words, naming the cohort, instead of "not part of this project", and stores nothing. Another
// project's imaging cohort stays "not in this project". Trials on imaging cohorts run: trials-imaging.api.test.ts.

let server: TestServer;
let admin: Person;
let deviceId = '';
let projectId = '';
let datasetId = '';
let elsewhereId = '';

const patients = Array.from({ length: 12 }, (_, k) => ({
  patient: `P${String(k + 1).padStart(2, '0')}`,
  models: [{ organ: 'aortic-root', phase: 'end-diastole', volume: (20 + k) * 1000 }],
}));

beforeAll(async () => {
  let elsewhere: { datasetId: string };
  ({ server, admin, deviceId, projectId, datasetId, elsewhere } = await imagingProjectWorld(patients));
  elsewhereId = elsewhere.datasetId;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const path = (what: string) => `/api/devices/${deviceId}/projects/${projectId}/${what}`;
const count = async (table: typeof ssms) => (await server.context.db.orm.select({ id: table.id }).from(table)).length;

describe('SSMs on an imaging cohort', () => {
  it('refuses an SSM of the project’s imaging cohort in words, and another project’s as not in this project', async () => {
    const refused = await admin.browser.postJson(path('ssms'), {
      cohortIds: [datasetId],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    expect(refused.status).toBe(422);
    const error = await errorOf(refused);
    expect(error.code).toBe('imaging_cohort_not_supported');
    expect(error.message).toMatch(/^Shape models cannot be built from your own imaging patients yet \(Our CTs\)/);
    const elsewhere = await admin.browser.postJson(path('ssms'), {
      cohortIds: [elsewhereId],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    expect(elsewhere.status).toBe(422);
    expect((await errorOf(elsewhere)).code).toBe('cohort_not_in_project');
    expect(await count(ssms)).toBe(0);
  });
});
