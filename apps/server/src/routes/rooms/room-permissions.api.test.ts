import type { Room, RoomScreenshot } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { testPicture } from '../../../test/helpers/pictures';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { json, principals, send, type Principal } from '../../../test/fixtures/workspace.fixtures';
import { createRoom, patientIdsOf, postBytes, roomsPathOf, transform } from '../../../test/fixtures/room.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { userIdOf } from '../../../test/fixtures/analysis.fixtures';

/**
 * The permission table of the room API (issue 5): every endpoint for every principal, on a project whose team holds
 * the guest, the member and the admin ("on team"), and on one whose team holds only the admin ("off team"). Reading
 * is `project.read`, every change `project.work` (docs/decisions/project-permissions.md).
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let cohortId = '';
let patients: string[] = [];
let versionId = '';
const on = { projectId: '', roomId: '', screenshotId: '' };
const off = { projectId: '', roomId: '', screenshotId: '' };
let png: Buffer;

beforeAll(async () => {
  const world = await projectWorld({ people: principalPeople, cohorts: { five: { name: 'Rooms five', size: 5 } } });
  ({ server, deviceId } = world);
  browsers = browsersOf(world);
  const admin = world.admin.browser;
  cohortId = world.cohortIds.five;
  patients = await patientIdsOf(admin, deviceId, cohortId);
  const [adminId, memberId, guestId] = [world.admin.id, world.people.member.id, world.people.guest.id];
  png = await testPicture('png', 64, 48);
  for (const [place, team] of [
    [on, [adminId, memberId, guestId]],
    [off, [adminId]],
  ] as const) {
    place.projectId = await insertProject(server, { deviceId, team, cohortIds: [cohortId] });
    place.roomId = (await createRoom(admin, deviceId, place.projectId, { cohortId, patientId: patients[0] })).id;
    const shot = await postBytes(admin, `${roomsPathOf(deviceId, place.projectId)}/${place.roomId}/screenshots`, png);
    place.screenshotId = (await json<RoomScreenshot>(shot)).id;
  }
  versionId = (await insertVersionWithModel(server, deviceId, { name: 'V1', status: 'ready', projectId: on.projectId }))
    .versionId;
  await insertVersionWithModel(server, deviceId, { name: 'V1 off', status: 'ready', projectId: off.projectId });
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser, place: typeof on) => Promise<Response>;
const x = 401;
const deny = { anonymous: x, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const roomPath = (place: typeof on) => `${roomsPathOf(deviceId, place.projectId)}/${place.roomId}`;
let counter = 0;
const fresh = () => `Room ${(counter += 1)}`;

/** Each endpoint, and its expected status on the on-team project and on the off-team project. */
const table: [string, Call, Record<Principal, number>, Record<Principal, number>][] = [
  [
    'GET …/rooms',
    (b, p) => b.get(roomsPathOf(deviceId, p.projectId)),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST …/rooms',
    (b, p) => b.postJson(roomsPathOf(deviceId, p.projectId), { cohortId, patientId: patients[1], name: fresh() }),
    { ...deny, guest: 403, member: 201, admin: 201 },
    { ...deny, guest: 403, member: 403, admin: 201 },
  ],
  [
    'GET …/rooms/:roomId',
    (b, p) => b.get(roomPath(p)),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'PATCH …/rooms/:roomId',
    (b, p) => send(b, 'PATCH', roomPath(p), { name: fresh() }),
    { ...deny, guest: 403, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    'GET …/rooms/:roomId/shares',
    (b, p) => b.get(`${roomPath(p)}/shares`),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST …/rooms/:roomId/shares',
    async (b, p) => {
      // Someone on the project's team other than the caller.
      const team = await json<{ items?: { userId: string }[] }>(await browsers.admin.get(`${roomPath(p)}/shares`));
      const userIds = team.items?.length ? [team.items[0]!.userId] : [await userIdOf(browsers.admin)];
      return b.postJson(`${roomPath(p)}/shares`, { userIds });
    },
    { ...deny, guest: 403, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    'GET …/rooms/:roomId/scene',
    (b, p) => b.get(`${roomPath(p)}/scene`),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'PUT …/rooms/:roomId/scene',
    (b, p) =>
      send(b, 'PUT', `${roomPath(p)}/scene`, {
        view: { phase: null, hiddenOrgans: [] },
        placements: p === on ? [{ versionId, transform: transform(), landmark: null }] : [],
      }),
    { ...deny, guest: 403, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    'GET …/rooms/:roomId/screenshots',
    (b, p) => b.get(`${roomPath(p)}/screenshots`),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST …/rooms/:roomId/screenshots',
    (b, p) => postBytes(b, `${roomPath(p)}/screenshots`, png),
    { ...deny, guest: 403, member: 201, admin: 201 },
    { ...deny, guest: 403, member: 403, admin: 201 },
  ],
  [
    'GET …/rooms/:roomId/screenshots/:screenshotId/image',
    (b, p) => b.get(`${roomPath(p)}/screenshots/${p.screenshotId}/image?size=thumb`),
    { ...deny, guest: 200, member: 200, admin: 200 },
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'GET …/rooms/:unknownId (no such room in this project)',
    (b, p) => b.get(`${roomsPathOf(deviceId, p.projectId)}/00000000-0000-4000-8000-000000000000`),
    { ...deny, guest: 404, member: 404, admin: 404 },
    { ...deny, guest: 403, member: 404, admin: 404 },
  ],
];

describe('permission table of the room API', () => {
  it.each(table)('%s', async (_name, call, onTeam, offTeam) => {
    const actual = { onTeam: {} as Record<Principal, number>, offTeam: {} as Record<Principal, number> };
    for (const principal of principals) {
      actual.onTeam[principal] = (await call(browsers[principal], on)).status;
      actual.offTeam[principal] = (await call(browsers[principal], off)).status;
    }
    expect(actual).toEqual({ onTeam, offTeam });
  });

  it('deletes only for the team: guests and members off the team are refused, then a member deletes', async () => {
    const target = await createRoom(browsers.admin, deviceId, off.projectId, {
      cohortId,
      patientId: patients[2],
    });
    const path = `${roomsPathOf(deviceId, off.projectId)}/${target.id}`;
    for (const principal of principals.filter((p) => p !== 'admin'))
      expect((await send(browsers[principal], 'DELETE', path)).status, principal).toBe(
        { ...deny, guest: 403, member: 403 }[principal],
      );
    const mine = await createRoom(browsers.member, deviceId, on.projectId, { cohortId, patientId: patients[2] });
    const minePath = `${roomsPathOf(deviceId, on.projectId)}/${mine.id}`;
    expect((await send(browsers.guest, 'DELETE', minePath)).status).toBe(403);
    expect((await send(browsers.member, 'DELETE', minePath)).status).toBe(204);
    expect((await browsers.member.get(minePath)).status).toBe(404);
    expect((await send(browsers.admin, 'DELETE', path)).status).toBe(204);
  });

  it('answers a guest on the team with the scene, read-only', async () => {
    const scene = await json<{ canEdit: boolean; room: Room }>(await browsers.guest.get(`${roomPath(on)}/scene`));
    expect(scene.canEdit).toBe(false);
    expect(scene.room.id).toBe(on.roomId);
    const member = await json<{ canEdit: boolean }>(await browsers.member.get(`${roomPath(on)}/scene`));
    expect(member.canEdit).toBe(true);
  });

  it('answers 404 for a room of another project, even to the admin of both', async () => {
    const crossed = `${roomsPathOf(deviceId, on.projectId)}/${off.roomId}`;
    expect((await browsers.admin.get(crossed)).status).toBe(404);
    expect((await send(browsers.admin, 'PATCH', crossed, { name: 'Moved' })).status).toBe(404);
    expect((await send(browsers.admin, 'DELETE', crossed)).status).toBe(404);
    expect((await browsers.admin.get(`${crossed}/screenshots/${off.screenshotId}/image`)).status).toBe(404);
    expect(
      (await browsers.admin.get(`${roomPath(on)}/screenshots/${off.screenshotId}/image`)).status,
      'a screenshot of another room',
    ).toBe(404);
  });
});
