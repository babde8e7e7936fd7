import { randomUUID } from 'node:crypto';
import {
  cohortAlreadyOnProjectMessage,
  cohortInProjectRoomsMessage,
  cohortNotReadyForProjectMessage,
  projectTitleRequiredMessage,
  projectTitleTakenMessage,
  projectTitleTooLongMessage,
  questionNotInWorkspaceMessage,
  versionInProjectRoomsMessage,
  type Project,
} from '@insilico/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cohorts, roomPlacements, rooms } from '../../db/schema';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertDeviceVersion, insertProject, insertQuestion } from '../../../test/factories/project-rows';
import { insertSsmRoom } from '../../../test/factories/room-rows';

/**
 * Editing a project after creation (issue 14 item 16): title and question with the wizard's rules, cohorts and
 * device versions added and removed, refused while rooms use them; only the team's admins and members may.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let stranger: Person;
let deviceId = '';
let readyCohortId = '';
let otherCohortId = '';

beforeAll(async () => {
  ({
    server,
    admin,
    deviceId,
    people: { member, guest, stranger },
    cohortIds: { ready: readyCohortId, other: otherCohortId },
  } = await projectWorld({
    people: { member: 'member', guest: 'guest', stranger: 'stranger' },
    cohorts: {
      ready: { name: `Edit adults ${randomUUID().slice(0, 6)}`, size: 5 },
      other: { name: `Edit others ${randomUUID().slice(0, 6)}`, size: 5 },
    },
  }));
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

const projectPath = (projectId: string) => `/api/devices/${deviceId}/projects/${projectId}`;
const uniqueTitle = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;

/** A room of the project (a patient of the cohort, or an SSM room when no cohort is named). */
async function insertRoom(projectId: string, name: string, cohortId?: string): Promise<string> {
  if (!cohortId) return insertSsmRoom(server, { deviceId, projectId, name });
  const [room] = await server.context.db.orm
    .insert(rooms)
    .values({ projectId, name, cohortId, patientIndex: 0 })
    .returning({ id: rooms.id });
  return room!.id;
}

describe('title and question of interest', () => {
  it('a team member changes them with the wizard rules and messages', async () => {
    const taken = uniqueTitle('Taken title');
    await insertProject(server, { deviceId, team: [admin.id], name: taken });
    const projectId = await insertProject(server, { deviceId, team: [admin.id, member.id], name: uniqueTitle('Old') });
    const path = projectPath(projectId);

    const renamed = await send(member.browser, 'PATCH', path, { name: '  Tricuspid study  ' });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    expect((await json<Project>(renamed)).name).toBe('Tricuspid study');
    // The project's own title in another letter case is not "taken".
    expect((await json<Project>(await send(member.browser, 'PATCH', path, { name: 'TRICUSPID study' }))).name).toBe(
      'TRICUSPID study',
    );
    expect(await errorOf(await send(member.browser, 'PATCH', path, { name: 'x'.repeat(51) }))).toMatchObject({
      status: 422,
      message: projectTitleTooLongMessage,
    });
    expect(await errorOf(await send(member.browser, 'PATCH', path, { name: '   ' }))).toMatchObject({
      status: 422,
      message: projectTitleRequiredMessage,
    });
    expect(await errorOf(await send(member.browser, 'PATCH', path, { name: taken.toUpperCase() }))).toMatchObject({
      status: 409,
      message: projectTitleTakenMessage,
    });

    const questionId = await insertQuestion(server, deviceId, { question: 'Does the clip hold the leaflets?' });
    const withQuestion = await json<Project>(await send(member.browser, 'PATCH', path, { questionId }));
    expect(withQuestion.question).toMatchObject({ id: questionId, question: 'Does the clip hold the leaflets?' });
    expect(await errorOf(await send(member.browser, 'PATCH', path, { questionId: randomUUID() }))).toMatchObject({
      status: 404,
      message: questionNotInWorkspaceMessage,
    });
    expect((await send(member.browser, 'PATCH', path, {})).status).toBe(400);
    const read = await json<Project>(await admin.browser.get(path));
    expect(read).toMatchObject({ name: 'TRICUSPID study', question: { id: questionId } });
  });

  it('only the team’s admins and members may; guests 403, outsiders 404', async () => {
    const projectId = await insertProject(server, { deviceId, team: [member.id, guest.id] });
    const body = { name: uniqueTitle('Refused') };
    expect((await send(admin.browser, 'PATCH', projectPath(projectId), body)).status).toBe(403);
    expect((await send(guest.browser, 'PATCH', projectPath(projectId), body)).status).toBe(403);
    expect((await send(stranger.browser, 'PATCH', projectPath(projectId), body)).status).toBe(404);
    expect(
      (await send(guest.browser, 'POST', `${projectPath(projectId)}/cohorts`, { cohortId: readyCohortId })).status,
    ).toBe(403);
  });
});

describe('patient cohorts', () => {
  it('adds ready cohorts of the workspace and removes them unless a room of the project shows their patients', async () => {
    const projectId = await insertProject(server, { deviceId, team: [admin.id], cohortIds: [readyCohortId] });
    const path = `${projectPath(projectId)}/cohorts`;
    const added = await admin.browser.postJson(path, { cohortId: otherCohortId });
    expect(added.status, await added.clone().text()).toBe(200);
    expect((await json<Project>(added)).cohorts.map((cohort) => cohort.id).sort()).toEqual(
      [readyCohortId, otherCohortId].sort(),
    );
    expect(await errorOf(await admin.browser.postJson(path, { cohortId: otherCohortId }))).toMatchObject({
      status: 409,
      message: cohortAlreadyOnProjectMessage,
    });
    expect((await errorOf(await admin.browser.postJson(path, { cohortId: randomUUID() }))).status).toBe(404);

    await insertRoom(projectId, 'SYN-000004 room', otherCohortId);
    expect(await errorOf(await send(admin.browser, 'DELETE', `${path}/${otherCohortId}`))).toMatchObject({
      status: 409,
      code: 'cohort_in_rooms',
      message: cohortInProjectRoomsMessage(['SYN-000004 room']),
    });
    const removed = await send(admin.browser, 'DELETE', `${path}/${readyCohortId}`);
    expect(removed.status).toBe(200);
    expect((await json<Project>(removed)).cohorts.map((cohort) => cohort.id)).toEqual([otherCohortId]);
    expect((await send(admin.browser, 'DELETE', `${path}/${readyCohortId}`)).status).toBe(404);
  });

  it('a cohort still being prepared is refused', async () => {
    const projectId = await insertProject(server, { deviceId, team: [admin.id] });
    const orm = server.context.db.orm;
    await orm.update(cohorts).set({ status: 'in_progress' }).where(eq(cohorts.id, readyCohortId));
    try {
      expect(
        await errorOf(await admin.browser.postJson(`${projectPath(projectId)}/cohorts`, { cohortId: readyCohortId })),
      ).toMatchObject({ status: 409, message: cohortNotReadyForProjectMessage });
    } finally {
      await orm.update(cohorts).set({ status: 'ready' }).where(eq(cohorts.id, readyCohortId));
    }
  });
});

describe('device versions', () => {
  it('one placed in a room of the project cannot be removed from it until it is out of the room', async () => {
    const versionId = await insertDeviceVersion(server, deviceId, { status: 'ready' });
    const projectId = await insertProject(server, { deviceId, team: [admin.id], versionIds: [versionId] });
    const roomId = await insertRoom(projectId, 'SSM room');
    await server.context.db.orm.insert(roomPlacements).values({
      roomId,
      versionId,
      transform: { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] },
    });
    const path = `${projectPath(projectId)}/device-versions/${versionId}`;
    expect(await errorOf(await send(admin.browser, 'DELETE', path))).toMatchObject({
      status: 409,
      code: 'device_version_in_rooms',
      message: versionInProjectRoomsMessage(['SSM room']),
    });
    await server.context.db.orm.delete(roomPlacements).where(eq(roomPlacements.roomId, roomId));
    expect((await send(admin.browser, 'DELETE', path)).status).toBe(204);
    expect((await json<Project>(await admin.browser.get(projectPath(projectId)))).deviceVersions).toEqual([]);
  });
});
