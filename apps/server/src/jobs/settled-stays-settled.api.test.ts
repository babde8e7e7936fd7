import type { Cohort, MeasurementOrder, Ssm } from '@insilico/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '../../test/helpers/domain-events';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import { criteriaWith, orderCohort } from '../../test/fixtures/cohort.fixtures';
import { userIdOf } from '../../test/fixtures/analysis.fixtures';
import { createWorkspace, json, signedIn, type Person } from '../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../test/factories/project-rows';
import { cohortOrderPerformer } from './cohort-order.performer';
import type { JobContext, JobDefinition } from './job-definition';
import { measurementOrderPerformer } from './measurement-order.performer';
import { ssmBuildPerformer } from './ssm-build.performer';

/**
 * A cohort order, a measurement order and an SSM build only ever go in progress → ready or in progress → failed: their job performed again
 * once they failed for good (a stale or retried run) stops without building anything and leaves them failed, with no
 * second settling event (the SSMs waiting for a cohort move on with its one settling, issue 18). The server works no
 * jobs itself, so every run here is the test's, whatever the machine's speed.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let userId = '';

const endDiastole = () => criteriaWith((c) => ({ ...c, phases_of_heart_cycle: { 'end-diastole': 'selected' } }));
const work = () => ({ progress: async () => undefined, signal: new AbortController().signal });

/** Performs one job as its runner would (a later attempt than the first, as a retried run is). */
async function performAgain<T>(definition: JobDefinition<T>, data: T): Promise<unknown> {
  const context: JobContext<T> = {
    jobId: 'stale-run',
    data,
    attempt: 2,
    signal: new AbortController().signal,
    progress: async () => undefined,
    services: server.context,
    log: pino({ level: 'silent' }),
  };
  return definition.perform(context);
}

beforeAll(async () => {
  server = await startTestServer({ JOBS_IN_PROCESS: 'false' });
  admin = await signedIn(server);
  ({ deviceId } = await createWorkspace(admin));
  userId = await userIdOf(admin.browser);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('a settled order or build stays settled', () => {
  it('a cohort order failed for good is not made ready by its job performed again', async () => {
    const ordered = await orderCohort(admin.browser, deviceId, { name: 'Failed once', size: 5 });
    expect(ordered.status).toBe('in_progress');
    await server.context.cohorts.failOrder(ordered.id, 'The patients could not be prepared.');

    expect(await performAgain(cohortOrderPerformer, { cohortId: ordered.id, userId })).toEqual({
      cohortId: ordered.id,
      outcome: 'failed',
    });
    expect(await json<Cohort>(await admin.browser.get(`/api/devices/${deviceId}/cohorts/${ordered.id}`))).toMatchObject(
      { status: 'failed', error: 'The patients could not be prepared.' },
    );
    expect((await eventsOf(server, 'cohort', ordered.id)).map((event) => event.action)).toEqual([
      'cohort.ordered',
      'cohort.failed',
    ]);
    // Failing it again changes nothing either.
    await server.context.cohorts.failOrder(ordered.id, 'Another reason.');
    expect((await eventsOf(server, 'cohort', ordered.id)).map((event) => event.action)).toEqual([
      'cohort.ordered',
      'cohort.failed',
    ]);
  }, 60_000);

  it('an SSM build failed for good is not built nor made ready by its job performed again', async () => {
    // A ready cohort of ten (its order's work done here, as the job would), on a project.
    const ten = await orderCohort(admin.browser, deviceId, { name: 'Ten', size: 10, criteria: endDiastole() });
    expect((await server.context.cohorts.prepareOrder(ten.id, work()))?.status).toBe('ready');
    const projectId = await insertProject(server, { deviceId, team: [userId], cohortIds: [ten.id] });

    const created = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/ssms`, {
      cohortIds: [ten.id],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    const ssm = await json<Ssm>(created);
    expect(ssm.status).toBe('in_progress');
    await server.context.ssms.failBuild(ssm.id, 'The shape model could not be built.');

    expect(await performAgain(ssmBuildPerformer, { ssmId: ssm.id, userId })).toEqual({
      ssmId: ssm.id,
      outcome: 'failed',
    });
    const shown = await json<Ssm>(
      await admin.browser.get(`/api/devices/${deviceId}/projects/${projectId}/ssms/${ssm.id}`),
    );
    expect(shown).toMatchObject({ status: 'failed', error: 'The shape model could not be built.' });
    const actions = (await eventsOf(server, 'ssm', ssm.id)).map((event) => event.action);
    expect(actions).not.toContain('ssm.built');
    expect(actions.filter((action) => action === 'ssm.failed')).toHaveLength(1);
  }, 180_000);

  it('a measurement order failed for good is not measured nor made ready by its job performed again', async () => {
    // Measurements are part of the team plan; a ready cohort of five (its order's work done here, as the job would).
    await server.context.subscriptions.set({ deviceId, plan: 'team', seats: 10 });
    const five = await orderCohort(admin.browser, deviceId, { name: 'Measured five', size: 5 });
    expect((await server.context.cohorts.prepareOrder(five.id, work()))?.status).toBe('ready');
    const created = await admin.browser.postJson(`/api/devices/${deviceId}/cohorts/${five.id}/measurement-orders`, {
      definitionIds: ['scct-tavi/annulus-area@1'],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const order = await json<MeasurementOrder>(created);
    expect(order.status).toBe('in_progress');
    await server.context.measurements.failOrder(order.id, 'The measurements could not be taken.');

    expect(await performAgain(measurementOrderPerformer, { orderId: order.id, userId })).toEqual({
      orderId: order.id,
      outcome: 'failed',
    });
    const shown = await json<MeasurementOrder>(
      await admin.browser.get(`/api/devices/${deviceId}/measurement-orders/${order.id}`),
    );
    expect(shown.status).toBe('failed');
    expect(shown.patients.flatMap((p) => p.cells).filter((cell) => cell.value !== null)).toEqual([]);
    const actions = (await eventsOf(server, 'measurement', order.id)).map((event) => event.action);
    expect(actions).not.toContain('measurement.measured');
    expect(actions.filter((action) => action === 'measurement.failed')).toHaveLength(1);
  }, 120_000);
});
