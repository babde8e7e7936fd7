import {
  defaultSsmName,
  ssmDuplicateMessage,
  ssmTooFewCode,
  ssmTooFewMessage,
  type CohortPatientPage,
  type CreatedProject,
  type Notification,
  type ProjectDraft,
  type Ssm,
  type SsmList,
} from '@insilico/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventsOf } from '../../../test/helpers/domain-events';
import type { TestServer } from '../../../test/helpers/test-server';
import { ssmCohorts } from '../../../test/fixtures/cohort.fixtures';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { copyReadyCohort, insertCohortInProgress } from '../../../test/factories/analysis-rows';
import { jobRuns, projects, ssms } from '../../db/schema';
import { ProjectCreationRepository } from '../../repositories/project-creation.repository';
import { draftSsmUncheckedMessage } from '../../services/project-draft.service';

/**
 * SSMs configured in the project wizard before the project exists (issue 18): added to the draft only when the
 * server has checked them with the rules of an SSM made on a project's page (spec §5's duplicate message, the
 * too-few refusal the web turns into its dialog, the default name), and queued as build jobs in the project's own
 * transaction, so a creation that fails leaves no SSM and no job behind.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let tenId = '';
let fiveId = '';
let pendingId = '';
let strayId = '';
/** Five of Ten's patients: left out, five remain (too few). */
let fiveOfTen: string[] = [];

const base = () => `/api/devices/${deviceId}`;
const orm = () => server.context.db.orm;
const addSsm = (body: Record<string, unknown>) => admin.browser.postJson(`${base()}/project-draft/ssms`, body);
const draft = async () => json<ProjectDraft>(await admin.browser.get(`${base()}/project-draft`));
const root = (overrides: Record<string, unknown> = {}) => ({
  cohortIds: [tenId],
  organs: ['aortic_root'],
  phase: 'end-diastole',
  ...overrides,
});
const projectBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Wizard ${Math.random().toString(36).slice(2, 8)}`,
  developmentStage: 'concept_and_design_feasibility',
  cohortIds: [tenId],
  ...overrides,
});
const ssmBuildRuns = async () => (await orm().select().from(jobRuns).where(eq(jobRuns.kind, 'ssm.build'))).length;

beforeAll(async () => {
  const world = await projectWorld({ cohorts: ssmCohorts });
  ({ server, admin, deviceId } = world);
  ({ ten: tenId, five: fiveId } = world.cohortIds);
  pendingId = await insertCohortInProgress(server, tenId);
  strayId = await copyReadyCohort(server, tenId);
  const patients = await json<CohortPatientPage>(
    await admin.browser.get(`${base()}/cohorts/${tenId}/patients?page=1&pageSize=100&sort=id&order=asc`),
  );
  fiveOfTen = patients.items.slice(0, 5).map((patient) => patient.id);
}, 400_000);
afterAll(async () => {
  await server?.stop();
});

describe('SSMs in the project draft', () => {
  it('are refused without a draft, and for every bad input with its message, the draft unchanged', async () => {
    expect(await errorOf(await addSsm(root()))).toMatchObject({ status: 409, code: 'no_draft' });
    const saved = await send(admin.browser, 'PUT', `${base()}/project-draft`, {
      step: 2,
      title: 'With SSMs',
      existingCohortSelected: [tenId, fiveId],
      newPatientCohortOrders: [pendingId],
    });
    expect(saved.status).toBe(200);
    const before = await draft();

    // A cohort of the workspace that the draft does not have.
    expect(await errorOf(await addSsm(root({ cohortIds: [strayId] })))).toMatchObject({
      status: 422,
      code: 'cohort_not_in_project',
    });
    // A cohort ordered in the wizard that is still being prepared.
    expect(await errorOf(await addSsm(root({ cohortIds: [pendingId] })))).toMatchObject({
      status: 409,
      code: 'cohort_not_ready',
    });
    // Five patients left: the too-few refusal the web shows as its dialog (spec §5, §8).
    expect(await errorOf(await addSsm(root({ excludedPatients: fiveOfTen })))).toMatchObject({
      status: 422,
      code: ssmTooFewCode,
      message: ssmTooFewMessage(5),
    });
    // Five: a synthetic patient may lack a phase's images (named first), else too few.
    const five = await errorOf(await addSsm(root({ cohortIds: [fiveId], phase: 'end-systole' })));
    expect(five.status).toBe(422);
    expect(['phase_missing', ssmTooFewCode]).toContain(five.code);
    expect(await errorOf(await addSsm(root({ excludedPatients: ['SYN-NOT-THERE'] })))).toMatchObject({
      status: 422,
      code: 'unknown_patient',
    });
    expect((await addSsm(root({ organs: ['spleen'] }))).status).toBe(400);
    expect((await addSsm(root({ cohortIds: [] }))).status).toBe(400);
    expect(await draft()).toEqual(before);
  });

  it('takes a checked configuration with a default name, then refuses the same configuration (spec §5)', async () => {
    const added = await json<ProjectDraft>(await addSsm(root()));
    expect(added.state?.ssms).toEqual([
      {
        cohortIds: [tenId],
        excludedPatients: [],
        organs: ['aortic_root'],
        phase: 'end-diastole',
        name: defaultSsmName({ organs: ['aortic_root'], phase: 'end-diastole' }, 10),
        shapeCount: 10,
      },
    ]);
    expect(added.state?.newSsm).toBeNull();
    expect((await draft()).state?.ssms).toHaveLength(1);

    // The same configuration under another name, organs repeated: compared on the configuration.
    expect(await errorOf(await addSsm(root({ name: 'Another name', organs: ['aortic_root', 'aortic_root'] })))).toEqual(
      { status: 409, code: 'ssm_exists', message: ssmDuplicateMessage },
    );

    const joint = await json<ProjectDraft>(
      await addSsm(root({ organs: ['mitral_annulus', 'aortic_annulus'], name: '  Two annuli  ' })),
    );
    expect(joint.state?.ssms.map((ssm) => [ssm.name, ssm.organs])).toEqual([
      [defaultSsmName({ organs: ['aortic_root'], phase: 'end-diastole' }, 10), ['aortic_root']],
      ['Two annuli', ['aortic_annulus', 'mitral_annulus']],
    ]);
  });

  it('lets a save remove an SSM but not add or change one the server has not checked', async () => {
    const { state } = await draft();
    const [first, second] = state!.ssms;
    const save = (list: unknown[]) => send(admin.browser, 'PUT', `${base()}/project-draft`, { ...state, ssms: list });

    const renamed = await errorOf(await save([first, { ...second, name: 'Renamed here' }]));
    expect(renamed).toEqual({ status: 422, code: 'draft_ssm_unchecked', message: draftSsmUncheckedMessage });
    const smuggled = await errorOf(await save([first, second, { ...first, cohortIds: [fiveId], shapeCount: 10 }]));
    expect(smuggled.code).toBe('draft_ssm_unchecked');
    expect((await draft()).state?.ssms).toHaveLength(2);

    expect((await save([second])).status).toBe(200);
    expect((await draft()).state?.ssms.map((ssm) => ssm.name)).toEqual(['Two annuli']);
    // And back (the server checks it again).
    expect((await addSsm(root())).status).toBe(200);
  });
});

describe('creating a project with SSMs', () => {
  it('refuses SSMs the new project cannot have, creating nothing', async () => {
    const before = { ssms: (await orm().select().from(ssms)).length, runs: await ssmBuildRuns() };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ssms: [root({ cohortIds: [fiveId] })] }, 422, 'cohort_not_in_project'],
      [{ ssms: [root({ excludedPatients: fiveOfTen })] }, 422, ssmTooFewCode],
      [{ ssms: [root(), root({ name: 'Twice' })] }, 409, 'ssm_exists'],
    ];
    for (const [overrides, status, code] of cases) {
      const body = projectBody(overrides);
      const error = await errorOf(await admin.browser.postJson(`${base()}/projects`, body));
      expect({ status: error.status, code: error.code }).toEqual({ status, code });
      expect(await orm().select().from(projects).where(eq(projects.name, body.name))).toEqual([]);
    }
    expect({ ssms: (await orm().select().from(ssms)).length, runs: await ssmBuildRuns() }).toEqual(before);
  });

  it('leaves no SSM and no job behind when a later step of the transaction fails', async () => {
    const before = { ssms: (await orm().select().from(ssms)).length, runs: await ssmBuildRuns() };
    const failure = vi
      .spyOn(ProjectCreationRepository.prototype, 'targetVersions')
      .mockRejectedValueOnce(new Error('storage went away'));
    const body = projectBody({ ssms: [root()] });
    try {
      expect((await admin.browser.postJson(`${base()}/projects`, body)).status).toBe(500);
    } finally {
      failure.mockRestore();
    }
    expect(await orm().select().from(projects).where(eq(projects.name, body.name))).toEqual([]);
    expect({ ssms: (await orm().select().from(ssms)).length, runs: await ssmBuildRuns() }).toEqual(before);
    expect((await draft()).state?.ssms).toHaveLength(2);
  });

  it('queues each SSM in the project’s transaction: in progress, then ready with its notification', async () => {
    const { state } = await draft();
    const body = projectBody({
      ssms: state!.ssms.map(({ shapeCount: _count, ...ssm }) => ssm),
    });
    const response = await admin.browser.postJson(`${base()}/projects`, body);
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    const { id } = await json<CreatedProject>(response);
    // The draft (and its SSMs) went with the project's creation.
    expect((await draft()).state).toBeNull();

    const list = await json<SsmList>(await admin.browser.get(`${base()}/projects/${id}/ssms`));
    expect(list.items.map((ssm) => [ssm.name, ssm.shapeCount]).sort()).toEqual(
      [
        ['Two annuli', 10],
        [defaultSsmName({ organs: ['aortic_root'], phase: 'end-diastole' }, 10), 10],
      ].sort(),
    );
    for (const ssm of list.items) {
      expect(ssm.status).toBe('in_progress');
      expect(await eventsOf(server, 'ssm', ssm.id)).toMatchObject([
        { action: 'ssm.build_started', projectId: id, after: { name: ssm.name, shapeCount: 10 } },
      ]);
    }
    const [project] = await eventsOf(server, 'project', id);
    expect(project).toMatchObject({ action: 'project.created', after: { ssms: expect.any(Array) } });

    // The build runs as for an SSM made later: ready, and its creator is told.
    const rootSsm = list.items.find((ssm) => ssm.name !== 'Two annuli')!;
    const until = Date.now() + 240_000;
    let ready: Ssm = rootSsm;
    while (ready.status === 'in_progress' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ready = await json<Ssm>(await admin.browser.get(`${base()}/projects/${id}/ssms/${rootSsm.id}`));
    }
    expect(ready).toMatchObject({ status: 'ready', progress: 1, shapeCount: 10 });
    const notified = await json<{ items: Notification[] }>(await admin.browser.get('/api/notifications'));
    expect(notified.items.find((item) => item.title === `SSM ${rootSsm.name} is ready`)?.link).toContain(rootSsm.id);
  }, 300_000);
});
