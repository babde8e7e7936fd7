import {
  initialsOf,
  lastTeamMemberMessage,
  projectStatuses,
  teamNoMatchMessage,
  type Project,
  type ProjectList,
  type ProjectOverview,
  type ProjectStats,
  type ProjectTeam,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { createWorkspace, errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import {
  insertDeviceVersion,
  insertProject,
  insertProjects,
  insertQuestion,
  setProjectStatus,
} from '../../../test/factories/project-rows';

/** The projects API (issue 5 items 3–5): overview data, one project, status moves, the team, the Stats tab. */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let pending: Person;
let invitedId = '';
let stranger: Person;
let deviceId = '';
let cohortId = '';

beforeAll(async () => {
  let invited: Person;
  ({
    server,
    admin,
    deviceId,
    people: { member, guest, pending, invited, stranger },
    cohortIds: { adults: cohortId },
  } = await projectWorld({
    people: { member: 'member', guest: 'guest', pending: 'pending', invited: 'invited', stranger: 'stranger' },
    cohorts: { adults: { name: 'Mitral adults', size: 5 } },
  }));
  invitedId = invited.id;
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

const base = () => `/api/devices/${deviceId}/projects`;
const list = async (person: Person, query = '') => json<ProjectList>(await person.browser.get(`${base()}${query}`));
const notificationsOf = async (userId: string) => (await server.context.notifications.list(userId, 50, null)).items;

describe('the overview list and one project', () => {
  it('gives each project its question with the V&V 40 risk level, cohorts, versions, team and the caller’s rights', async () => {
    const questionId = await insertQuestion(server, deviceId, {
      question: 'Does the stent stay in place?',
      modelInfluence: 'medium',
      decisionConsequence: 'high',
    });
    const ready = await insertDeviceVersion(server, deviceId, { name: 'V1', status: 'ready' });
    const processing = await insertDeviceVersion(server, deviceId, { name: 'V2', status: 'processing' });
    const projectId = await insertProject(server, {
      deviceId,
      team: [member.id, admin.id],
      name: 'Stent anchoring',
      developmentStage: 'clinical_trial',
      questionId,
      cohortIds: [cohortId],
      versionIds: [ready, processing],
    });
    const project = await json<Project>(await member.browser.get(`${base()}/${projectId}`));
    expect(project).toMatchObject({
      id: projectId,
      name: 'Stent anchoring',
      developmentStage: 'clinical_trial',
      status: 'active',
      question: {
        id: questionId,
        question: 'Does the stent stay in place?',
        modelInfluence: 'medium',
        decisionConsequence: 'high',
        riskLevel: 4,
      },
      cohorts: [{ id: cohortId, name: 'Mitral adults', size: 5, status: 'ready' }],
      canManage: true,
      canComment: true,
    });
    expect(project.deviceVersions.map((version) => [version.name, version.status]).sort()).toEqual([
      ['V1', 'ready'],
      ['V2', 'processing'],
    ]);
    expect(project.team.map((person) => person.id)).toEqual([member.id, admin.id]);
    expect(project.team[0]).toMatchObject({ name: member.account.fullName, role: 'member', pictureUrl: null });
    expect(project.team[0]!.initials).toBe(initialsOf(member.account.fullName));
    expect(Date.parse(project.createdAt)).not.toBeNaN();

    const asGuest = await list(guest);
    expect(asGuest.items.some((item) => item.id === projectId)).toBe(false);
    const listed = (await list(member)).items.find((item) => item.id === projectId);
    expect(listed).toEqual(project);
  });

  it('tells admins off the team they may read but not manage or comment', async () => {
    const projectId = await insertProject(server, { deviceId, team: [member.id] });
    const project = await json<Project>(await admin.browser.get(`${base()}/${projectId}`));
    expect(project).toMatchObject({ canManage: false, canComment: false });
  });

  it('filters by status, searches the name (wildcards are literal) and keeps a stable newest-first order', async () => {
    const tag = `Filter${Date.now()}`;
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, minutes));
    const [older, newer, done, literal] = await insertProjects(server, [
      { deviceId, team: [admin.id], name: `${tag} older`, createdAt: at(1) },
      { deviceId, team: [admin.id], name: `${tag} newer`, createdAt: at(2) },
      { deviceId, team: [admin.id], name: `${tag} done`, status: 'completed', createdAt: at(3) },
      { deviceId, team: [admin.id], name: `${tag} 100%_x`, status: 'abandoned', createdAt: at(4) },
    ]);
    const ids = async (query: string) => (await list(admin, query)).items.map((item) => item.id);
    expect(await ids(`?search=${tag.toLowerCase()}`)).toEqual([literal, done, newer, older]);
    expect(await ids(`?status=active&search=${tag}`)).toEqual([newer, older]);
    expect(await ids(`?status=completed&search=${tag}`)).toEqual([done]);
    expect(await ids(`?status=abandoned&search=${tag}`)).toEqual([literal]);
    expect(await ids(`?search=${encodeURIComponent(`${tag} 100%_`)}`)).toEqual([literal]);
    expect(await ids(`?search=${encodeURIComponent(`${tag} %`)}`)).toEqual([]);
    const refused = await admin.browser.get(`${base()}?status=paused`);
    expect(refused.status).toBe(400);
  });

  it('lists 1,000 projects in one answer, or by stage page with the counts per stage', async () => {
    const { deviceId: bigDevice } = await createWorkspace(stranger, {
      deviceInfo: { deviceName: 'Big', deviceType: 'stent' },
    });
    await insertProjects(
      server,
      Array.from({ length: 1000 }, (_, index) => ({
        deviceId: bigDevice,
        team: [stranger.id],
        name: `Bulk ${String(index).padStart(4, '0')}`,
        cohortIds: [],
        developmentStage: index % 2 === 0 ? ('concept_and_design_feasibility' as const) : ('clinical_trial' as const),
      })),
    );
    const started = performance.now();
    const response = await stranger.browser.get(`/api/devices/${bigDevice}/projects`);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    const body = await json<ProjectList>(response);
    expect(body.items).toHaveLength(1000);
    expect(body.items.every((item) => item.team.length === 1 && item.canManage)).toBe(true);
    // Generous for a loaded 2-core machine; the benchmark measures it properly.
    expect(elapsed).toBeLessThan(10_000);
    expect(body.total).toBe(1000);
    expect(body.stageCounts).toEqual({ concept_and_design_feasibility: 500, animal_testing: 0, clinical_trial: 500 });

    // The overview's way: the counts alone, then one page per stage group; pages follow on without overlap.
    const path = `/api/devices/${bigDevice}/projects`;
    const countsOnly = await json<ProjectList>(await stranger.browser.get(`${path}?limit=0&search=bulk 00`));
    expect(countsOnly).toMatchObject({ items: [], total: 100, canCreate: true });
    expect(countsOnly.stageCounts).toEqual({
      concept_and_design_feasibility: 50,
      animal_testing: 0,
      clinical_trial: 50,
    });
    const page = async (offset: number) =>
      json<ProjectList>(await stranger.browser.get(`${path}?stage=clinical_trial&limit=24&offset=${offset}`));
    const [first, second] = [await page(0), await page(24)];
    expect(first.total).toBe(500);
    expect(first.items).toHaveLength(24);
    expect(first.items.every((item) => item.developmentStage === 'clinical_trial')).toBe(true);
    const everyInStage = body.items.filter((item) => item.developmentStage === 'clinical_trial').map((item) => item.id);
    expect([...first.items, ...second.items].map((item) => item.id)).toEqual(everyInStage.slice(0, 48));
    expect((await page(490)).items).toHaveLength(10);
    expect((await stranger.browser.get(`${path}?limit=201`)).status).toBe(400);
    expect((await stranger.browser.get(`${path}?stage=orbit`)).status).toBe(400);

    // The overview's first screen in one answer: every stage in order, its count and the same first page.
    const overview = await json<ProjectOverview>(await stranger.browser.get(`${path}/overview`));
    expect(overview.groups.map((group) => [group.stage, group.total, group.items.length])).toEqual([
      ['concept_and_design_feasibility', 500, 24],
      ['animal_testing', 0, 0],
      ['clinical_trial', 500, 24],
    ]);
    expect(overview).toMatchObject({ total: 1000, canCreate: true });
    expect(overview.groups[2]!.items).toEqual(first.items);
    const searched = await json<ProjectOverview>(
      await stranger.browser.get(`${path}/overview?search=bulk 00&status=active&limit=5`),
    );
    expect(searched.groups.map((group) => [group.total, group.items.length])).toEqual([
      [50, 5],
      [0, 0],
      [50, 5],
    ]);
    for (const bad of ['limit=0', 'limit=201', 'status=paused', `search=${'x'.repeat(101)}`])
      expect((await stranger.browser.get(`${path}/overview?${bad}`)).status).toBe(400);
  });
});

describe('status moves', () => {
  const allowed = new Set(['active>completed', 'active>abandoned', 'completed>active', 'abandoned>active']);
  let projectId = '';
  beforeAll(async () => {
    projectId = await insertProject(server, { deviceId, team: [member.id, admin.id, guest.id], name: 'Moves' });
  });

  for (const from of projectStatuses)
    for (const to of projectStatuses)
      it(`${from} → ${to} is ${allowed.has(`${from}>${to}`) ? 'allowed' : 'refused with a message naming the move'}`, async () => {
        await setProjectStatus(server, projectId, from);
        const response = await member.browser.postJson(`${base()}/${projectId}/status`, {
          status: to,
          reason: `Moved to ${to}`,
        });
        if (allowed.has(`${from}>${to}`)) {
          expect(response.status).toBe(200);
          const project = await json<Project>(response);
          expect(project.status).toBe(to);
          expect(project.statusChangedAt).not.toBeNull();
        } else {
          const error = await errorOf(response);
          expect(error.status).toBe(409);
          expect(error.code).toBe('status_move_refused');
          expect(error.message).toContain(from === to ? `already ${from}` : `from ${from} to ${to}`);
        }
      });

  it('notifies the team but not whoever moved it', async () => {
    await setProjectStatus(server, projectId, 'active');
    expect(
      (await member.browser.postJson(`${base()}/${projectId}/status`, { status: 'completed', reason: 'Done' })).status,
    ).toBe(200);
    const link = `/projects/view/stats?project=${projectId}&device=${deviceId}`;
    for (const person of [admin, guest])
      expect(await notificationsOf(person.id)).toContainEqual(
        expect.objectContaining({ title: 'Project Moves was completed', link }),
      );
    expect((await notificationsOf(member.id)).some((item) => item.link === link)).toBe(false);
    expect(
      (await admin.browser.postJson(`${base()}/${projectId}/status`, { status: 'active', reason: 'Reopened' })).status,
    ).toBe(200);
    expect(await notificationsOf(member.id)).toContainEqual(
      expect.objectContaining({ title: 'Project Moves was reactivated', link }),
    );
  });

  it('refuses an unknown status with 400', async () => {
    const response = await member.browser.postJson(`${base()}/${projectId}/status`, { status: 'paused', reason: 'x' });
    expect(response.status).toBe(400);
  });
});

describe('the project team', () => {
  let projectId = '';
  const teamPath = () => `${base()}/${projectId}/team`;
  beforeAll(async () => {
    projectId = await insertProject(server, { deviceId, team: [member.id], name: 'Team rules' });
  });

  it('adds only users working in the workspace, with the search message otherwise', async () => {
    for (const userId of [pending.id, invitedId, stranger.id, '00000000-0000-4000-8000-000000000000']) {
      const error = await errorOf(await member.browser.postJson(teamPath(), { userId }));
      expect(error).toEqual({ status: 422, code: 'no_match', message: teamNoMatchMessage });
    }
    expect((await member.browser.postJson(teamPath(), { userId: 'not-a-uuid' })).status).toBe(400);
  });

  it('adds a guest, notifies them, and refuses adding them twice', async () => {
    const added = await member.browser.postJson(teamPath(), { userId: guest.id });
    expect(added.status).toBe(201);
    const team = await json<ProjectTeam>(added);
    expect(team.items.map((person) => [person.id, person.role])).toEqual([
      [member.id, 'member'],
      [guest.id, 'guest'],
    ]);
    expect(team.canManage).toBe(true);
    expect(await notificationsOf(guest.id)).toContainEqual(
      expect.objectContaining({
        title: 'You were added to the project Team rules',
        link: `/projects/view/stats?project=${projectId}&device=${deviceId}`,
      }),
    );
    expect((await errorOf(await member.browser.postJson(teamPath(), { userId: guest.id }))).status).toBe(409);
    // The guest now sees the project and reads its team, but may not change it.
    const asGuest = await json<ProjectTeam>(await guest.browser.get(teamPath()));
    expect(asGuest.canManage).toBe(false);
  });

  it('removes a user, answers 404 for someone not on the team, and refuses removing the last user', async () => {
    const removed = await send(member.browser, 'DELETE', `${teamPath()}/${guest.id}`);
    expect(removed.status).toBe(200);
    expect((await json<ProjectTeam>(removed)).items.map((person) => person.id)).toEqual([member.id]);
    expect((await send(member.browser, 'DELETE', `${teamPath()}/${guest.id}`)).status).toBe(404);
    const last = await errorOf(await send(member.browser, 'DELETE', `${teamPath()}/${member.id}`));
    expect(last).toEqual({ status: 409, code: 'last_team_member', message: lastTeamMemberMessage });
    expect(last.message).toContain('Abandon the project');
  });

  it('lets a user leave a team that others remain on, after which they may no longer manage it', async () => {
    expect((await member.browser.postJson(teamPath(), { userId: admin.id })).status).toBe(201);
    const left = await json<ProjectTeam>(await send(member.browser, 'DELETE', `${teamPath()}/${member.id}`));
    expect(left.items.map((person) => person.id)).toEqual([admin.id]);
    expect(left.canManage).toBe(false);
    expect((await member.browser.postJson(teamPath(), { userId: member.id })).status).toBe(403);
  });
});

describe('the Stats tab', () => {
  it('counts the cohorts’ patients, versions by status, rooms, simulations (none yet) and the team', async () => {
    const versions = [
      await insertDeviceVersion(server, deviceId, { status: 'ready' }),
      await insertDeviceVersion(server, deviceId, { status: 'ready' }),
      await insertDeviceVersion(server, deviceId, { status: 'failed' }),
    ];
    const projectId = await insertProject(server, {
      deviceId,
      team: [admin.id, guest.id],
      cohortIds: [cohortId],
      versionIds: versions,
    });
    const stats = await json<ProjectStats>(await guest.browser.get(`${base()}/${projectId}/stats`));
    expect(stats.cohorts).toEqual([{ id: cohortId, name: 'Mitral adults', size: 5, status: 'ready', patients: 5 }]);
    expect(stats.patients).toBe(5);
    expect(stats.deviceVersions.byStatus).toEqual({ ready: 2, failed: 1 });
    expect(stats.deviceVersions.items).toHaveLength(3);
    expect(stats.rooms).toEqual({ total: 0 });
    expect(stats.simulations).toEqual({ total: 0, byStatus: {} });
    expect(stats.team.map((person) => person.id)).toEqual([admin.id, guest.id]);
  });
});
