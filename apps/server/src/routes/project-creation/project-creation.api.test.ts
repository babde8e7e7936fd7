import {
  noPermissionMessage,
  projectStageNotInWorkspaceMessage,
  projectTitleRequiredMessage,
  projectTitleTakenMessage,
  projectTitleTooLongMessage,
  teamNoMatchMessage,
  type CreatedProject,
  type Notification,
  type ProjectDraft,
  type Question,
  type QuestionList,
} from '@insilico/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { deviceVersions, projectCohorts, projectDeviceVersions, projectMembers, projects } from '../../db/schema';
import { ProjectCreationRepository } from '../../repositories/project-creation.repository';
import { orderCohort } from '../../../test/fixtures/cohort.fixtures';
import {
  errorOf,
  json,
  principals,
  send,
  type Person,
  type Principal,
} from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
let admin: Person;
let member: Person;
let guestBrowser: TestBrowser;
let deviceId = '';
let browsers = {} as Record<Principal, TestBrowser>;
/** The permission table's other admin and their workspace, for the isolation cases. */
let otherAdmin: Person;
let otherDeviceId = '';
/** The permission table's outsider (signed in, no workspace) and pending member, for the team cases. */
let outsider: Person;
let pending: Person;

beforeAll(async () => {
  // `author` is a member of their own: the table's member keeps a draft apart from theirs.
  const world = await projectWorld({ people: { ...principalPeople, author: 'member' } });
  ({ server, admin, deviceId } = world);
  browsers = browsersOf(world);
  guestBrowser = browsers.guest;
  ({ author: member, otherAdmin, nonMember: outsider, pending } = world.people);
  otherDeviceId = world.ownDeviceIds.otherAdmin!;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

/**
 * A device version row in a given state, written straight into the database: this suite tests how a project
 * links versions, not how versions are uploaded and processed (the device-version suites do).
 */
async function insertVersion(
  server: TestServer,
  deviceId: string,
  status: 'uploading' | 'processing' | 'ready' | 'failed',
  name = `Version ${Math.random().toString(36).slice(2, 8)}`,
): Promise<string> {
  const rows = await server.context.db.orm
    .insert(deviceVersions)
    .values({ deviceId, name, status })
    .returning({ id: deviceVersions.id });
  return rows[0]!.id;
}

/** A body for `POST /api/devices/:deviceId/projects` with a fresh title. */
function projectBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Project ${Math.random().toString(36).slice(2, 8)}`,
    developmentStage: 'concept_and_design_feasibility',
    cohortIds: [],
    versionIds: [],
    teamUserIds: [],
    ...overrides,
  };
}

const base = () => `/api/devices/${deviceId}`;
const orm = () => server.context.db.orm;
const createProject = (browser: TestBrowser, overrides: Record<string, unknown> = {}) =>
  browser.postJson(`${base()}/projects`, projectBody(overrides));

describe('permission table of the project creation API', () => {
  type Call = (browser: TestBrowser) => Promise<Response>;
  const deny = { anonymous: 401, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
  const table: [string, Call, Record<Principal, number>][] = [
    ['POST .../projects', (b) => createProject(b), { ...deny, guest: 403, member: 201, admin: 201 }],
    [
      'GET .../project-title-check',
      (b) => b.get(`${base()}/project-title-check?name=Anything`),
      { ...deny, guest: 403, member: 200, admin: 200 },
    ],
    [
      'GET .../project-draft',
      (b) => b.get(`${base()}/project-draft`),
      { ...deny, guest: 403, member: 200, admin: 200 },
    ],
    [
      'PUT .../project-draft',
      (b) => send(b, 'PUT', `${base()}/project-draft`, { step: 2, title: 'Draft' }),
      { ...deny, guest: 403, member: 200, admin: 200 },
    ],
    [
      'DELETE .../project-draft',
      (b) => send(b, 'DELETE', `${base()}/project-draft`),
      { ...deny, guest: 403, member: 204, admin: 204 },
    ],
    [
      'GET .../questions-of-interest',
      (b) => b.get(`${base()}/questions-of-interest`),
      { ...deny, guest: 403, member: 200, admin: 200 },
    ],
    [
      'POST .../questions-of-interest',
      (b) => b.postJson(`${base()}/questions-of-interest`, { question: 'Does the valve seal?' }),
      { ...deny, guest: 403, member: 201, admin: 201 },
    ],
  ];

  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('refuses a guest with the no-permission message of spec §6', async () => {
    expect(await errorOf(await createProject(guestBrowser))).toEqual({
      status: 403,
      code: 'forbidden',
      message: noPermissionMessage,
    });
  });
});

describe('POST /api/devices/:deviceId/projects: the title', () => {
  it('refuses a title of 51 characters with the spec message and takes one of 50, trimmed', async () => {
    expect(await errorOf(await createProject(admin.browser, { name: 'a'.repeat(51) }))).toEqual({
      status: 422,
      code: 'invalid_title',
      message: projectTitleTooLongMessage,
    });
    const fifty = `T${'b'.repeat(49)}`;
    const response = await createProject(admin.browser, { name: `   ${fifty}  ` });
    expect(response.status).toBe(201);
    const { id } = await json<CreatedProject>(response);
    const [row] = await orm().select().from(projects).where(eq(projects.id, id));
    expect(row?.name).toBe(fifty);
  });

  it('counts characters, not UTF-16 units', async () => {
    expect((await createProject(admin.browser, { name: '🫀'.repeat(50) })).status).toBe(201);
    expect((await errorOf(await createProject(admin.browser, { name: '🫀'.repeat(51) }))).message).toBe(
      projectTitleTooLongMessage,
    );
  });

  it('refuses an empty or blank title', async () => {
    for (const name of ['', '    '])
      expect(await errorOf(await createProject(admin.browser, { name }))).toEqual({
        status: 422,
        code: 'invalid_title',
        message: projectTitleRequiredMessage,
      });
  });

  it('refuses a title the workspace already has, in any letter case, but not one of another workspace', async () => {
    expect((await createProject(admin.browser, { name: 'Mitral Study' })).status).toBe(201);
    expect(await errorOf(await createProject(member.browser, { name: '  mitral study ' }))).toEqual({
      status: 409,
      code: 'project_title_taken',
      message: projectTitleTakenMessage,
    });
    const elsewhere = await otherAdmin.browser.postJson(
      `/api/devices/${otherDeviceId}/projects`,
      projectBody({ name: 'Mitral Study' }),
    );
    expect(elsewhere.status).toBe(201);
  });

  it('answers the title step with the same rules', async () => {
    const check = async (name: string) =>
      json<{ problem: string | null }>(
        await admin.browser.get(`${base()}/project-title-check?name=${encodeURIComponent(name)}`),
      );
    expect(await check('MITRAL STUDY')).toEqual({ problem: projectTitleTakenMessage });
    expect(await check('x'.repeat(51))).toEqual({ problem: projectTitleTooLongMessage });
    expect(await check(' ')).toEqual({ problem: projectTitleRequiredMessage });
    expect(await check('A fresh title')).toEqual({ problem: null });
  });

  it('takes only a development stage of the workspace', async () => {
    expect(await errorOf(await createProject(admin.browser, { developmentStage: 'clinical_trial' }))).toEqual({
      status: 422,
      code: 'invalid_stage',
      message: projectStageNotInWorkspaceMessage,
    });
    expect((await createProject(admin.browser, { developmentStage: 'no_such_stage' })).status).toBe(400);
  });
});

describe('POST /api/devices/:deviceId/projects: what the project links to', () => {
  it('creates the project with its cohorts, question, versions and team in one go, and clears the draft', async () => {
    const cohort = await orderCohort(member.browser, deviceId, { name: 'Linked cohort', size: 5 });
    const question = await json<Question>(
      await member.browser.postJson(`${base()}/questions-of-interest`, {
        question: 'Does the valve seal at the annulus?',
        modelInfluence: 'high',
        decisionConsequence: 'medium',
      }),
    );
    const ready = await insertVersion(server, deviceId, 'ready');
    const processing = await insertVersion(server, deviceId, 'processing');
    expect((await send(member.browser, 'PUT', `${base()}/project-draft`, { step: 5, title: 'Linked' })).status).toBe(
      200,
    );

    const response = await createProject(member.browser, {
      name: 'Linked',
      questionId: question.id,
      cohortIds: [cohort.id, cohort.id],
      versionIds: [ready, processing],
      teamUserIds: [admin.id],
    });
    expect(response.status).toBe(201);
    const { id } = await json<CreatedProject>(response);

    const [project] = await orm().select().from(projects).where(eq(projects.id, id));
    expect(project).toMatchObject({
      deviceId,
      name: 'Linked',
      questionId: question.id,
      status: 'active',
      createdBy: member.id,
    });
    const team = await orm().select().from(projectMembers).where(eq(projectMembers.projectId, id));
    expect(team.map((row) => row.userId).sort()).toEqual([admin.id, member.id].sort());
    const cohorts = await orm().select().from(projectCohorts).where(eq(projectCohorts.projectId, id));
    expect(cohorts.map((row) => row.cohortId)).toEqual([cohort.id]);
    // The ready version joins at once; the processing one when its job marks it ready (spec §4).
    const linked = await orm().select().from(projectDeviceVersions).where(eq(projectDeviceVersions.projectId, id));
    expect(linked.map((row) => row.versionId)).toEqual([ready]);
    const [pending] = await orm().select().from(deviceVersions).where(eq(deviceVersions.id, processing));
    expect(pending?.targetProjectId).toBe(id);

    expect(await json<ProjectDraft>(await member.browser.get(`${base()}/project-draft`))).toEqual({
      state: null,
      updatedAt: null,
    });
    const questions = await json<QuestionList>(await member.browser.get(`${base()}/questions-of-interest`));
    expect(questions.items.find((item) => item.id === question.id)?.projectCount).toBe(1);

    // The admin was added by the member and hears about it; the creator does not notify themself.
    const notified = await json<{ items: Notification[] }>(await admin.browser.get('/api/notifications'));
    expect(notified.items.some((item) => item.link === `/projects/view/stats?project=${id}&device=${deviceId}`)).toBe(
      true,
    );
    const own = await json<{ items: Notification[] }>(await member.browser.get('/api/notifications'));
    expect(own.items.some((item) => item.link === `/projects/view/stats?project=${id}&device=${deviceId}`)).toBe(false);
  });

  it('puts the creator on the team even when the team list leaves them out', async () => {
    const { id } = await json<CreatedProject>(await createProject(admin.browser, { teamUserIds: [] }));
    const team = await orm().select().from(projectMembers).where(eq(projectMembers.projectId, id));
    expect(team.map((row) => row.userId)).toEqual([admin.id]);
  });

  it('answers 404 for cohorts, versions, questions and previous projects of another workspace', async () => {
    const foreignCohort = await orderCohort(otherAdmin.browser, otherDeviceId, { name: 'Foreign', size: 5 });
    const foreignVersion = await insertVersion(server, otherDeviceId, 'ready');
    const foreignQuestion = await json<Question>(
      await otherAdmin.browser.postJson(`/api/devices/${otherDeviceId}/questions-of-interest`, { question: 'Q?' }),
    );
    const foreignProject = await json<CreatedProject>(
      await otherAdmin.browser.postJson(`/api/devices/${otherDeviceId}/projects`, projectBody()),
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ cohortIds: [foreignCohort.id] }, 'cohort_not_found'],
      [{ versionIds: [foreignVersion] }, 'version_not_found'],
      [{ questionId: foreignQuestion.id }, 'question_not_found'],
      [{ basedOnProjectId: foreignProject.id }, 'project_not_found'],
    ];
    for (const [overrides, code] of cases) {
      const error = await errorOf(await createProject(admin.browser, overrides));
      expect({ status: error.status, code: error.code }).toEqual({ status: 404, code });
    }
  });

  it('takes only users with an ok membership of the workspace into the team', async () => {
    for (const userId of [outsider.id, pending.id, otherAdmin.id])
      expect(await errorOf(await createProject(admin.browser, { teamUserIds: [userId] }))).toEqual({
        status: 422,
        code: 'not_in_workspace',
        message: teamNoMatchMessage,
      });
    const guest = await json<{ items: { userId: string | null; role: string }[] }>(
      await admin.browser.get(`${base()}/team`),
    );
    const guestId = guest.items.find((row) => row.role === 'guest')?.userId;
    expect(guestId).toBeTruthy();
    // A guest of the workspace may be on a project (they see only the projects they are on).
    expect((await createProject(admin.browser, { teamUserIds: [guestId] })).status).toBe(201);
  });

  it('refuses a failed version and a version processing for another project', async () => {
    const failed = await insertVersion(server, deviceId, 'failed', 'Broken one');
    expect(await errorOf(await createProject(admin.browser, { versionIds: [failed] }))).toMatchObject({
      status: 422,
      code: 'version_failed',
    });
    const shared = await insertVersion(server, deviceId, 'processing');
    expect((await createProject(admin.browser, { versionIds: [shared] })).status).toBe(201);
    expect(await errorOf(await createProject(admin.browser, { versionIds: [shared] }))).toMatchObject({
      status: 409,
      code: 'version_claimed',
    });
  });

  it('leaves nothing behind when a step of the transaction fails', async () => {
    const processing = await insertVersion(server, deviceId, 'processing');
    const cohort = await orderCohort(admin.browser, deviceId, { name: 'Rolled back cohort', size: 5 });
    expect((await send(admin.browser, 'PUT', `${base()}/project-draft`, { step: 4, title: 'Doomed' })).status).toBe(
      200,
    );
    // The last write of the transaction fails: project, team, cohort links must all be rolled back.
    const failure = vi
      .spyOn(ProjectCreationRepository.prototype, 'targetVersions')
      .mockRejectedValueOnce(new Error('storage went away'));
    try {
      const response = await createProject(admin.browser, {
        name: 'Doomed',
        cohortIds: [cohort.id],
        versionIds: [processing],
        teamUserIds: [member.id],
      });
      expect(response.status).toBe(500);
    } finally {
      failure.mockRestore();
    }
    expect(await orm().select().from(projects).where(eq(projects.name, 'Doomed'))).toEqual([]);
    expect(await orm().select().from(projectCohorts).where(eq(projectCohorts.cohortId, cohort.id))).toEqual([]);
    const [version] = await orm().select().from(deviceVersions).where(eq(deviceVersions.id, processing));
    expect(version?.targetProjectId).toBeNull();
    const draft = await json<ProjectDraft>(await admin.browser.get(`${base()}/project-draft`));
    expect(draft.state?.title).toBe('Doomed');
    // And the same request succeeds once the failure is gone.
    expect((await createProject(admin.browser, { name: 'Doomed', versionIds: [processing] })).status).toBe(201);
  });
});

describe('the project creation draft', () => {
  it('round-trips the creation state of spec §3, per user, and is discarded on request', async () => {
    const empty = await json<ProjectDraft>(await member.browser.get(`${base()}/project-draft`));
    expect(empty).toEqual({ state: null, updatedAt: null });
    const state = {
      step: 3,
      title: 'Aortic stent study',
      developmentStage: 'concept_and_design_feasibility',
      options: { isCreatingFromScratch: false, useUploadedImagingData: false },
      basedOnProjectId: '00000000-0000-4000-8000-000000000001',
      basedOnPatientCohort: null,
      existingCohortSelected: ['00000000-0000-4000-8000-000000000002'],
      newPatientCohortOrders: [],
      firstPatientCohort: { step: 'order', criteria: null, name: 'Adults', description: '', size: 10 },
      questionId: null,
      existingDeviceVersionsSelected: [],
      newDeviceVersions: ['00000000-0000-4000-8000-000000000003'],
      firstDeviceVersion: { name: 'v2', description: 'Longer struts' },
      teamUserIds: [admin.id],
      uploadedImagingData: { note: 'arterial phase', data: ['00000000-0000-4000-8000-000000000004'] },
      // An SSM being configured (issue 18); added ones are checked by …/project-draft/ssms (their own suite).
      newSsm: {
        cohortIds: ['00000000-0000-4000-8000-000000000002'],
        excludedPatients: ['SYN-000001'],
        organs: ['aortic_root'],
        phase: 'end-systole',
        name: 'Roots',
      },
      ssms: [],
    };
    const saved = await send(member.browser, 'PUT', `${base()}/project-draft`, state);
    expect(saved.status).toBe(200);
    const read = await json<ProjectDraft>(await member.browser.get(`${base()}/project-draft`));
    expect(read.state).toEqual(state);
    expect(read.updatedAt).toEqual(expect.any(String));
    // Another user of the workspace has a draft of their own.
    const theirs = await json<ProjectDraft>(await browsers.member.get(`${base()}/project-draft`));
    expect(theirs.state?.title).not.toBe('Aortic stent study');

    expect((await send(member.browser, 'DELETE', `${base()}/project-draft`)).status).toBe(204);
    expect(await json<ProjectDraft>(await member.browser.get(`${base()}/project-draft`))).toEqual(empty);
  });

  it('fills the defaults of a partial draft', async () => {
    await send(member.browser, 'PUT', `${base()}/project-draft`, { title: 'Only a title' });
    const read = await json<ProjectDraft>(await member.browser.get(`${base()}/project-draft`));
    expect(read.state).toMatchObject({
      step: 1,
      title: 'Only a title',
      options: { isCreatingFromScratch: true, useUploadedImagingData: false },
      existingCohortSelected: [],
      teamUserIds: [],
      uploadedImagingData: { note: '', data: [] },
    });
  });

  it('refuses drafts that are malformed or too large', async () => {
    const bad: Record<string, unknown>[] = [
      { step: 0 },
      { step: 6 },
      { title: 'x'.repeat(201) },
      { existingCohortSelected: ['not-a-uuid'] },
      { teamUserIds: Array.from({ length: 201 }, () => admin.id) },
      { firstDeviceVersion: { name: 'n', description: 'd'.repeat(2001) } },
      { developmentStage: 'animal' },
    ];
    for (const body of bad)
      expect((await send(member.browser, 'PUT', `${base()}/project-draft`, body)).status).toBe(400);
  });
});

describe('questions of interest', () => {
  it('stores the question with the V&V 40 fields and derives the model risk level', async () => {
    const response = await member.browser.postJson(`${base()}/questions-of-interest`, {
      question: '  Is the stent fatigue life above 10 years?  ',
      contextOfUse: 'Replaces a bench fatigue test for design iteration.',
      modelInfluence: 'medium',
      decisionConsequence: 'high',
    });
    expect(response.status).toBe(201);
    const question = await json<Question>(response);
    expect(question).toMatchObject({
      question: 'Is the stent fatigue life above 10 years?',
      contextOfUse: 'Replaces a bench fatigue test for design iteration.',
      modelInfluence: 'medium',
      decisionConsequence: 'high',
      modelRiskLevel: 4,
      createdBy: { id: member.id },
      projectCount: 0,
    });
    const list = await json<QuestionList>(await admin.browser.get(`${base()}/questions-of-interest`));
    expect(list.items.map((item) => item.id)).toContain(question.id);
  });

  it('leaves the risk level open while a V&V 40 field is missing', async () => {
    const question = await json<Question>(
      await member.browser.postJson(`${base()}/questions-of-interest`, {
        question: 'Which size fits 90 % of the cohort?',
        contextOfUse: '',
        modelInfluence: 'low',
      }),
    );
    expect(question).toMatchObject({ contextOfUse: null, modelInfluence: 'low', modelRiskLevel: null });
  });

  it('refuses an empty or too long question and unknown grades, saying what is wrong', async () => {
    for (const [body, message] of [
      [{ question: '   ' }, 'Enter the question of interest.'],
      [{ question: 'q'.repeat(501) }, 'The question can have at most 500 characters.'],
      [{ question: 'Fine?', modelInfluence: 'extreme' }, 'Some of what was sent is not valid.'],
      [{ question: 'Fine?', contextOfUse: 'c'.repeat(2001) }, 'The context of use can have at most 2000 characters.'],
    ] as const)
      expect(await errorOf(await member.browser.postJson(`${base()}/questions-of-interest`, body))).toEqual({
        status: 400,
        code: 'bad_request',
        message,
      });
  });

  it('keeps each workspace’s questions to itself', async () => {
    const mine = await json<QuestionList>(await admin.browser.get(`${base()}/questions-of-interest`));
    const theirs = await json<QuestionList>(
      await otherAdmin.browser.get(`/api/devices/${otherDeviceId}/questions-of-interest`),
    );
    const mineIds = new Set(mine.items.map((item) => item.id));
    expect(theirs.items.some((item) => mineIds.has(item.id))).toBe(false);
    expect((await otherAdmin.browser.get(`${base()}/questions-of-interest`)).status).toBe(404);
  });
});
