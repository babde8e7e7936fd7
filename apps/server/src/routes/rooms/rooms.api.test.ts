import {
  roomNameTakenMessage,
  type NotificationList,
  type Room,
  type RoomPage,
  type RoomScene,
  type RoomScreenshot,
  type RoomScreenshotList,
  type RoomShareList,
} from '@insilico/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { eventsOf } from '../../../test/helpers/domain-events';
import { testPicture } from '../../../test/helpers/pictures';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { createWorkspace, errorOf, json, send, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { createRoom, patientIdsOf, postBytes, roomsPathOf, transform } from '../../../test/fixtures/room.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { userIdOf } from '../../../test/fixtures/analysis.fixtures';

/** The room API (issue 5 items 7–8): create, names, filters, sharing, the scene and its validation, screenshots. */
let server: TestServer;
let admin: Person;
let member: Person;
let outsider: Person;
let deviceId = '';
let cohortId = '';
let otherCohortId = '';
let patients: string[] = [];
let otherPatients: string[] = [];
let projectId = '';
let readyVersion = '';
let processingVersion = '';
let foreignVersion = '';
let rooms = '';

beforeAll(async () => {
  ({
    server,
    admin,
    deviceId,
    people: { member, outsider },
    cohortIds: { first: cohortId, second: otherCohortId },
    projectId,
  } = await projectWorld({
    // The outsider is on the workspace but not on the project's team.
    people: { member: 'member', outsider: 'member' },
    cohorts: { first: { name: 'Mitral A', size: 5 }, second: { name: 'Mitral B', size: 5 } },
    project: { team: ['admin', 'member'], cohorts: ['first'] },
  }));
  patients = await patientIdsOf(admin.browser, deviceId, cohortId);
  otherPatients = await patientIdsOf(admin.browser, deviceId, otherCohortId);
  const elsewhere = await insertProject(server, { deviceId, team: [admin.id], cohortIds: [] });
  readyVersion = (await insertVersionWithModel(server, deviceId, { name: 'Valve 1', status: 'ready', projectId }))
    .versionId;
  processingVersion = (
    await insertVersionWithModel(server, deviceId, { name: 'Valve 2', status: 'processing', projectId })
  ).versionId;
  foreignVersion = (
    await insertVersionWithModel(server, deviceId, { name: 'Valve 3', status: 'ready', projectId: elsewhere })
  ).versionId;
  rooms = roomsPathOf(deviceId, projectId);
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

async function list(browser: TestBrowser, query = ''): Promise<RoomPage> {
  const response = await browser.get(`${rooms}${query}`);
  expect(response.status).toBe(200);
  return json<RoomPage>(response);
}

describe('creating rooms', () => {
  it('creates a room on a patient of the project with a default name, numbered for the same patient', async () => {
    const room = await createRoom(member.browser, deviceId, projectId, { cohortId, patientId: patients[0] });
    expect(room.name).toBe(`${patients[0]} room`);
    expect(room.subject).toEqual({ kind: 'patient', cohortId, cohortName: 'Mitral A', patientId: patients[0] });
    expect(room).toMatchObject({ hasSimulation: false, placementCount: 0, screenshotCount: 0, latestScreenshot: null });
    expect(room.createdBy).toEqual({ id: member.id, name: expect.any(String) });
    const again = await createRoom(admin.browser, deviceId, projectId, { cohortId, patientId: patients[0] });
    expect(again.name).toBe(`${patients[0]} room 2`);
    // The audit trail holds the creation, by its creator, with what the room shows (issue 20).
    const [created, ...others] = await eventsOf(server, 'room', room.id);
    expect(others).toEqual([]);
    expect(created).toMatchObject({
      action: 'room.created',
      actorId: member.id,
      projectId,
      after: { name: room.name, cohortId, patientId: patients[0], ssmId: null },
    });
  });

  it('refuses a patient of a cohort that is not the project’s, and a patient the cohort does not have', async () => {
    const foreign = await admin.browser.postJson(rooms, { cohortId: otherCohortId, patientId: otherPatients[0] });
    expect(await errorOf(foreign)).toMatchObject({ status: 422, code: 'cohort_not_in_project' });
    const missing = await admin.browser.postJson(rooms, { cohortId, patientId: 'SYN-999999' });
    expect(await errorOf(missing)).toMatchObject({ status: 422, code: 'patient_not_in_cohort' });
    const malformed = await admin.browser.postJson(rooms, { cohortId, patientId: 'Robert' });
    expect(malformed.status).toBe(400);
  });

  it('refuses a name another room of the project has (any letter case) with the message the field shows', async () => {
    await createRoom(admin.browser, deviceId, projectId, { cohortId, patientId: patients[1], name: 'Baseline' });
    const duplicate = await admin.browser.postJson(rooms, { cohortId, patientId: patients[1], name: 'BASELINE' });
    expect(await errorOf(duplicate)).toEqual({ status: 409, code: 'room_name_taken', message: roomNameTakenMessage });
  });
});

describe('renaming', () => {
  it('renames, refuses a duplicate name with 409 and its message, and keeps a blank name out', async () => {
    const room = await createRoom(admin.browser, deviceId, projectId, { cohortId, patientId: patients[2] });
    const path = `${rooms}/${room.id}`;
    const renamed = await send(member.browser, 'PATCH', path, { name: '  Oversized valve  ' });
    expect(renamed.status).toBe(200);
    expect((await json<Room>(renamed)).name).toBe('Oversized valve');
    expect(await errorOf(await send(member.browser, 'PATCH', path, { name: 'baseline' }))).toEqual({
      status: 409,
      code: 'room_name_taken',
      message: roomNameTakenMessage,
    });
    // Its own name in another letter case is not a clash.
    expect((await json<Room>(await send(member.browser, 'PATCH', path, { name: 'OVERSIZED valve' }))).name).toBe(
      'OVERSIZED valve',
    );
    expect((await send(member.browser, 'PATCH', path, { name: '   ' })).status).toBe(400);
    expect((await send(member.browser, 'PATCH', path, { name: 'x'.repeat(101) })).status).toBe(400);
  });
});

describe('listing and filters', () => {
  it('searches by name, filters by patient, SSM and simulation, pages, and offers the patients as choices', async () => {
    const all = await list(admin.browser);
    expect(all.total).toBe(4);
    expect(all.facets.patients.map((patient) => patient.patientId).sort()).toEqual(
      [patients[0], patients[1], patients[2]].sort(),
    );
    expect(all.facets.ssms).toEqual([]);
    expect(all.cohorts).toEqual([{ cohortId, name: 'Mitral A', status: 'ready' }]);
    expect(all.canEdit).toBe(true);
    expect((await list(admin.browser, '?search=oVeRsIzEd')).items.map((room) => room.name)).toEqual([
      'OVERSIZED valve',
    ]);
    // A search is a plain substring, not a pattern.
    expect((await list(admin.browser, '?search=%25')).total).toBe(0);
    const byPatient = await list(admin.browser, `?cohortId=${cohortId}&patientId=${patients[0]}`);
    expect(byPatient.items.map((room) => room.name).sort()).toEqual([`${patients[0]} room`, `${patients[0]} room 2`]);
    expect((await list(admin.browser, '?subject=ssm')).total).toBe(0);
    expect((await list(admin.browser, '?subject=patient')).total).toBe(4);
    expect((await list(admin.browser, '?hasSimulation=yes')).total).toBe(0);
    expect((await list(admin.browser, '?hasSimulation=no')).total).toBe(4);
    const first = await list(admin.browser, '?pageSize=12&page=1');
    expect(first.items).toHaveLength(4);
    expect((await list(admin.browser, '?pageSize=12&page=2')).items).toHaveLength(0);
    expect((await admin.browser.get(`${rooms}?pageSize=7`)).status).toBe(400);
    expect((await admin.browser.get(`${rooms}?hasSimulation=maybe`)).status).toBe(400);
  });
});

describe('sharing', () => {
  it('shares with team members, who are notified with a link to the room; others are refused', async () => {
    const room = await createRoom(admin.browser, deviceId, projectId, { cohortId, patientId: patients[3] });
    const path = `${rooms}/${room.id}/shares`;
    const before = await json<RoomShareList>(await admin.browser.get(path));
    expect(before.items.map((item) => [item.userId, item.shared])).toEqual([[member.id, false]]);
    const refused = await admin.browser.postJson(path, { userIds: [outsider.id] });
    expect(await errorOf(refused)).toMatchObject({ status: 422, code: 'not_on_team' });
    const shared = await json<RoomShareList>(await admin.browser.postJson(path, { userIds: [member.id] }));
    expect(shared.items[0]).toMatchObject({ userId: member.id, shared: true });
    // Sharing again notifies nobody twice.
    await admin.browser.postJson(path, { userIds: [member.id] });
    const inbox = await json<NotificationList>(await member.browser.get('/api/notifications'));
    const notes = inbox.items.filter((item) => item.kind === 'room.shared');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.link).toBe(`/projects/room?project=${projectId}&room=${room.id}&device=${deviceId}`);
    expect(notes[0]!.title).toContain(room.name);
    const shown = await json<Room>(await member.browser.get(`${rooms}/${room.id}`));
    expect(shown.sharedWith).toEqual([{ id: member.id, name: expect.any(String) }]);
  });
});

describe('the scene', () => {
  let scenePath = '';
  beforeAll(async () => {
    const room = await createRoom(member.browser, deviceId, projectId, { cohortId, patientId: patients[4] });
    scenePath = `${rooms}/${room.id}/scene`;
  });

  it('offers the patient’s anatomy and the project’s ready versions with their model URLs', async () => {
    const scene = await json<RoomScene>(await member.browser.get(scenePath));
    // Synthetic patients have different phases (some only end-systole or only end-diastole): use the patient's own.
    const phase = scene.anatomy.phases[0]!;
    expect(['end-diastole', 'end-systole']).toContain(phase);
    expect(scene.anatomy.organs).toContain('mitral_annulus');
    expect(scene.anatomy.meshUrlTemplate).toBe(
      `/api/devices/${deviceId}/cohorts/${cohortId}/patients/${patients[4]}/meshes/{phase}`,
    );
    const mesh = await member.browser.get(scene.anatomy.meshUrlTemplate.replace('{phase}', phase));
    expect(mesh.status).toBe(200);
    expect(scene.versions.map((version) => version.name)).toEqual(['Valve 1']);
    expect(scene.versions[0]!.files[0]!.modelUrl).toMatch(
      new RegExp(`^/api/devices/${deviceId}/device-versions/${readyVersion}/files/[0-9a-f-]+/model$`),
    );
    expect(scene).toMatchObject({
      placements: [],
      view: { phase: null, hiddenOrgans: ['left_lung', 'rib_cage', 'right_lung'] },
      canEdit: true,
    });
  });

  it('saves placements and view settings and reads them back in order', async () => {
    const phase = (await json<RoomScene>(await member.browser.get(scenePath))).anatomy.phases.at(-1)!;
    const saved = await send(member.browser, 'PUT', scenePath, {
      view: { phase, hiddenOrgans: ['rib_cage', 'left_lung'] },
      placements: [
        { versionId: readyVersion, transform: transform(), landmark: 'mitral_annulus' },
        { versionId: readyVersion, transform: transform({ position: [0, 0, 0], scale: [1.2, 1.2, 1.2] }) },
      ],
    });
    expect(saved.status).toBe(200);
    const again = await json<RoomScene>(await member.browser.get(scenePath));
    expect(again.view).toEqual({ phase, hiddenOrgans: ['rib_cage', 'left_lung'] });
    expect(again.placements.map((placement) => [placement.versionName, placement.landmark])).toEqual([
      ['Valve 1', 'mitral_annulus'],
      ['Valve 1', null],
    ]);
    expect(again.placements[0]!.transform).toEqual(transform());
    expect(again.room.placementCount).toBe(2);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a position that is not a number', { position: ['1', 0, 0] }],
    ['a position far outside the patient', { position: [0, 0, 5000] }],
    ['a position with two components', { position: [0, 0] }],
    ['a quaternion that is not of unit length', { quaternion: [0, 0, 0, 2] }],
    ['a zero quaternion', { quaternion: [0, 0, 0, 0] }],
    ['a quaternion slightly off unit length', { quaternion: [0, 0, 0, 1.01] }],
    ['a zero scale', { scale: [0, 1, 1] }],
    ['a negative scale', { scale: [-1, 1, 1] }],
    ['a huge scale', { scale: [1, 1, 1000] }],
    ['a null component', { scale: [1, null, 1] }],
  ];
  it.each(invalid)('refuses %s (400) and keeps the saved scene', async (_name, change) => {
    const response = await send(member.browser, 'PUT', scenePath, {
      view: { phase: null, hiddenOrgans: [] },
      placements: [{ versionId: readyVersion, transform: transform(change) }],
    });
    expect(response.status).toBe(400);
    expect((await json<RoomScene>(await member.browser.get(scenePath))).placements).toHaveLength(2);
  });

  it('accepts a quaternion within the tolerance of unit length', async () => {
    const response = await send(member.browser, 'PUT', scenePath, {
      view: { phase: null, hiddenOrgans: [] },
      placements: [{ versionId: readyVersion, transform: transform({ quaternion: [0, 0, 0, 1.0005] }) }],
    });
    expect(response.status).toBe(200);
  });

  it('refuses versions not ready or not on the project, unknown landmarks, organs and phases', async () => {
    const put = (body: Record<string, unknown>) =>
      send(member.browser, 'PUT', scenePath, { view: { phase: null, hiddenOrgans: [] }, placements: [], ...body });
    const placed = (versionId: string, landmark: string | null = null) => ({
      placements: [{ versionId, transform: transform(), landmark }],
    });
    expect(await errorOf(await put(placed(processingVersion)))).toMatchObject({
      status: 422,
      code: 'version_not_placeable',
    });
    expect(await errorOf(await put(placed(foreignVersion)))).toMatchObject({
      status: 422,
      code: 'version_not_placeable',
    });
    expect(await errorOf(await put(placed(readyVersion, 'left_ear')))).toMatchObject({
      status: 422,
      code: 'unknown_landmark',
    });
    expect(await errorOf(await put({ view: { phase: null, hiddenOrgans: ['spleen'] } }))).toMatchObject({
      status: 422,
      code: 'unknown_organ',
    });
    expect(await errorOf(await put({ view: { phase: 'cine-99of99', hiddenOrgans: [] } }))).toMatchObject({
      status: 422,
      code: 'unknown_phase',
    });
    const tooMany = Array.from({ length: 21 }, () => ({ versionId: readyVersion, transform: transform() }));
    expect((await put({ placements: tooMany })).status).toBe(400);
  });
});

describe('screenshots', () => {
  it('keeps PNG screenshots in the gallery, newest first, and serves the image and its thumbnail', async () => {
    const room = await createRoom(member.browser, deviceId, projectId, { cohortId, patientId: patients[4] });
    const path = `${rooms}/${room.id}/screenshots`;
    const first = await postBytes(member.browser, path, await testPicture('png', 640, 360));
    expect(first.status).toBe(201);
    const second = await json<RoomScreenshot>(
      await postBytes(member.browser, path, await testPicture('png', 320, 200), 'application/octet-stream'),
    );
    expect(second).toMatchObject({ width: 320, height: 200 });
    const gallery = await json<RoomScreenshotList>(await member.browser.get(path));
    expect(gallery.items.map((item) => item.id)).toEqual([second.id, (await json<RoomScreenshot>(first)).id]);
    const full = await member.browser.get(second.url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await full.arrayBuffer())).metadata()).width).toBe(320);
    const thumb = await member.browser.get(second.thumbnailUrl);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(256);
    const card = await json<Room>(await member.browser.get(`${rooms}/${room.id}`));
    expect(card.screenshotCount).toBe(2);
    expect(card.latestScreenshot?.id).toBe(second.id);
  });

  it('checks the bytes: a JPEG, a text file and an empty body are refused, and so is more than 5120 KB', async () => {
    const room = await createRoom(member.browser, deviceId, projectId, { cohortId, patientId: patients[3] });
    const path = `${rooms}/${room.id}/screenshots`;
    const jpeg = await postBytes(member.browser, path, await testPicture('jpeg', 64, 64));
    expect(await errorOf(jpeg)).toMatchObject({ status: 415, code: 'screenshot_type' });
    const text = await postBytes(member.browser, path, Buffer.from('not an image at all'));
    expect(text.status).toBe(415);
    expect((await postBytes(member.browser, path, new Uint8Array(0))).status).toBeGreaterThanOrEqual(400);
    const big = Buffer.concat([await testPicture('png', 16, 16), Buffer.alloc(5120 * 1024)]);
    expect((await postBytes(member.browser, path, big)).status).toBe(413);
    expect((await json<RoomScreenshotList>(await member.browser.get(path))).items).toHaveLength(0);
  });

  it('deletes a room with its screenshots, placements and shares', async () => {
    const room = await createRoom(member.browser, deviceId, projectId, { cohortId, patientId: patients[1] });
    const path = `${rooms}/${room.id}`;
    const shot = await json<RoomScreenshot>(
      await postBytes(member.browser, `${path}/screenshots`, await testPicture('png', 64, 48)),
    );
    const before = await server.context.db.executeSql(
      `select storage_key from stored_files where purpose = 'room_screenshot'`,
    );
    expect((await send(member.browser, 'DELETE', path)).status).toBe(204);
    expect((await member.browser.get(path)).status).toBe(404);
    expect((await member.browser.get(shot.url)).status).toBe(404);
    const after = await server.context.db.executeSql(
      `select storage_key from stored_files where purpose = 'room_screenshot'`,
    );
    expect(after.rows.length).toBe(before.rows.length - 1);
    const gone = before.rows.find((row) => !after.rows.some((kept) => kept.storage_key === row.storage_key));
    expect(await server.context.blobs.get('eu', String(gone!.storage_key))).toBeNull();
  });
});

describe('another workspace', () => {
  it('answers 404 for the project and its rooms to the admin of another workspace', async () => {
    const stranger = await signedIn(server);
    await createWorkspace(stranger);
    expect((await stranger.browser.get(rooms)).status).toBe(404);
    expect((await userIdOf(stranger.browser)).length).toBeGreaterThan(0);
  });
});
