import type { Cohort, CreatedProject, Notification, ProjectDraft, Ssm, SsmList } from '@insilico/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventsOf } from '../../../test/helpers/domain-events';
import { restartableTestServer, type TestServer } from '../../../test/helpers/test-server';
import { criteriaWith, orderCohort } from '../../../test/fixtures/cohort.fixtures';
import { createWorkspace, json, send, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { jobRuns, ssms } from '../../db/schema';
import { PatientMeshCache } from '../../services/cohort-mesh.service';
import { chainedCohortFailedMessage } from '../../services/ssm.service';

/**
 * An SSM configured in the project wizard on cohorts still being ordered (issue 18): it waits for them without a
 * build job (the project shows what it waits for), across a restart of the server, and its build starts in the
 * transaction that makes the last of its cohorts ready; a cohort order that fails fails the SSM with the cohort's
 * name. The first server works no jobs, so both cohorts are still being ordered when the project is created,
 * whatever the machine's speed; the second, on the same data, works the queued orders.
 */
let restartable: Awaited<ReturnType<typeof restartableTestServer>>;
let server: TestServer;
let admin: Person;
let deviceId = '';
let roots: Cohort;
let broken: Cohort;
let projectId = '';

const base = () => `/api/devices/${deviceId}`;
const endDiastole = () => criteriaWith((c) => ({ ...c, phases_of_heart_cycle: { 'end-diastole': 'selected' } }));
const ssmOn = (cohort: Cohort) => ({
  cohortIds: [cohort.id],
  organs: ['aortic_root'],
  phase: 'end-diastole',
  name: `${cohort.name} model`,
});
const ssmBuildRuns = async () =>
  (await server.context.db.orm.select().from(jobRuns).where(eq(jobRuns.kind, 'ssm.build'))).length;
const listed = async () => json<SsmList>(await admin.browser.get(`${base()}/projects/${projectId}/ssms`));
const byCohort = (list: SsmList, cohortId: string) =>
  list.items.find((ssm) => ssm.configuration.cohortIds.includes(cohortId))!;

/** Polls an SSM of the project until it leaves `in_progress`. */
async function settledSsm(ssmId: string, timeoutMs: number): Promise<Ssm> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ssm = await json<Ssm>(await admin.browser.get(`${base()}/projects/${projectId}/ssms/${ssmId}`));
    if (ssm.status !== 'in_progress' || Date.now() > until) return ssm;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  restartable = await restartableTestServer();
  server = await restartable.start({ JOBS_IN_PROCESS: 'false' });
  admin = await signedIn(server);
  ({ deviceId } = await createWorkspace(admin));
  roots = await orderCohort(admin.browser, deviceId, { name: 'Roots', size: 10, criteria: endDiastole() });
  broken = await orderCohort(admin.browser, deviceId, { name: 'Broken', size: 10, criteria: endDiastole() });
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await server?.stop();
  restartable?.dispose();
});

describe('an SSM chained onto cohorts still being ordered', () => {
  it('is added to the draft from the patients drawn for the order, and waits for its cohort without a job', async () => {
    expect([roots.status, broken.status]).toEqual(['in_progress', 'in_progress']);
    const saved = await send(admin.browser, 'PUT', `${base()}/project-draft`, {
      step: 2,
      title: 'Chained SSMs',
      newPatientCohortOrders: [roots.id, broken.id],
    });
    expect(saved.status).toBe(200);
    for (const cohort of [roots, broken]) {
      const added = await admin.browser.postJson(`${base()}/project-draft/ssms`, ssmOn(cohort));
      expect(added.status, JSON.stringify(await added.clone().json())).toBe(200);
    }
    const { state } = await json<ProjectDraft>(await admin.browser.get(`${base()}/project-draft`));
    expect(state?.ssms.map((ssm) => ssm.shapeCount)).toEqual([10, 10]);

    const runsBefore = await ssmBuildRuns();
    const created = await admin.browser.postJson(`${base()}/projects`, {
      name: 'Chained SSMs',
      developmentStage: 'concept_and_design_feasibility',
      cohortIds: [roots.id, broken.id],
      ssms: state!.ssms.map(({ shapeCount: _count, ...ssm }) => ssm),
    });
    expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
    projectId = (await json<CreatedProject>(created)).id;

    // The project shows what each SSM waits for; no build is queued yet.
    const list = await listed();
    const shown = list.items.map((ssm) => [ssm.name, ssm.status, ssm.progress, ssm.waitingFor] as const);
    expect(shown.sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['Broken model', 'in_progress', 0, [{ id: broken.id, name: 'Broken' }]],
      ['Roots model', 'in_progress', 0, [{ id: roots.id, name: 'Roots' }]],
    ]);
    expect(await ssmBuildRuns()).toBe(runsBefore);
    const waiting = byCohort(list, roots.id);
    expect(await eventsOf(server, 'ssm', waiting.id)).toMatchObject([
      {
        action: 'ssm.build_started',
        projectId,
        after: { shapeCount: 10, waitingForCohorts: [{ id: roots.id, name: 'Roots' }] },
      },
    ]);
  }, 120_000);

  it('survives a restart: the resumed order makes its cohort ready and starts the build; a failed order fails it', async () => {
    await server.stop();
    // The order of Broken fails on every attempt (its anatomy cannot be prepared); Roots' is prepared as usual.
    const prepare = PatientMeshCache.prototype.prepare;
    vi.spyOn(PatientMeshCache.prototype, 'prepare').mockImplementation(function (this: PatientMeshCache, ...args) {
      if ((args[1] as { id?: string }).id === broken.id) return Promise.reject(new Error('anatomy unavailable'));
      return prepare.apply(this, args);
    });
    server = await restartable.start();

    const list = await listed();
    const built = await settledSsm(byCohort(list, roots.id).id, 400_000);
    expect(built).toMatchObject({ status: 'ready', shapeCount: 10, waitingFor: [], progress: 1 });
    expect((await eventsOf(server, 'ssm', built.id)).map((event) => event.action)).toEqual([
      'ssm.build_started',
      'ssm.build_queued',
      'ssm.built',
    ]);

    const failed = await settledSsm(byCohort(list, broken.id).id, 120_000);
    expect(failed).toMatchObject({ status: 'failed', error: chainedCohortFailedMessage('Broken'), waitingFor: [] });
    const [row] = await server.context.db.orm.select().from(ssms).where(eq(ssms.id, failed.id));
    expect(row?.jobId).toBeNull();
    expect(await json<Cohort>(await admin.browser.get(`${base()}/cohorts/${broken.id}`))).toMatchObject({
      status: 'failed',
    });

    // Its creator hears of both.
    const notified = await json<{ items: Notification[] }>(await admin.browser.get('/api/notifications'));
    expect(notified.items.find((item) => item.title === `SSM ${built.name} is ready`)?.link).toContain(built.id);
    expect(notified.items.find((item) => item.title === `SSM ${failed.name} could not be built`)?.body).toBe(
      chainedCohortFailedMessage('Broken'),
    );
  }, 600_000);
});
