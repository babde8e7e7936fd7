import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBrowser } from '../../../test/helpers/browser';
import { putBytes, testPicture } from '../../../test/helpers/pictures';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import {
  invite,
  json,
  principals,
  send,
  workspaceBody,
  type Principal,
} from '../../../test/fixtures/workspace.fixtures';

/**
 * The permission table of issue 3: every endpoint of the device-workspace API for every principal,
 * each cell an explicit allow (2xx) or deny (401 / 403). Principals run in this order, the admin
 * last, so that the admin's successful changes do not alter what the others were refused.
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let approveTargetId = '';
let removeTargetId = '';
let revokeInvitationId = '';
let inviteCounter = 0;
let adminId = '';
let picture: Buffer = Buffer.alloc(0);

beforeAll(async () => {
  // The member the admin approves and the one the admin changes and removes are not the table's.
  const world = await projectWorld({
    people: { ...principalPeople, approveTarget: 'pending', removeTarget: 'member' },
  });
  const admin = world.admin;
  ({ server, deviceId } = world);
  browsers = browsersOf(world);
  adminId = admin.id;
  approveTargetId = world.people.approveTarget.id;
  removeTargetId = world.people.removeTarget.id;
  // Pictures to read: the admin's own and the device's.
  picture = await testPicture('png', 64, 48);
  expect((await putBytes(admin.browser, '/api/me/picture', picture)).status).toBe(200);
  expect((await putBytes(admin.browser, `/api/devices/${deviceId}/picture`, picture)).status).toBe(200);
  revokeInvitationId = (await json<{ invitationId: string }>(await invite(admin, deviceId, 'revoke.me@example.com')))
    .invitationId;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser) => Promise<Response>;
const x = 401; // anonymous
const table: [string, Call, Record<Principal, number>][] = [
  [
    'GET /api/devices/:id',
    (b) => b.get(`/api/devices/${deviceId}`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 200, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'PATCH /api/devices/:id',
    (b) => send(b, 'PATCH', `/api/devices/${deviceId}`, { dataRegion: 'eu' }),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 200 },
  ],
  [
    'GET /api/devices/:id/team',
    (b) => b.get(`/api/devices/${deviceId}/team`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'POST /api/devices/:id/invitations',
    (b) => b.postJson(`/api/devices/${deviceId}/invitations`, { email: `new${(inviteCounter += 1)}@example.com` }),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 201 },
  ],
  [
    'DELETE /api/devices/:id/invitations/:invitationId',
    (b) => send(b, 'DELETE', `/api/devices/${deviceId}/invitations/${revokeInvitationId}`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 204 },
  ],
  [
    'POST /api/devices/:id/members/:userId/approve',
    (b) => b.postJson(`/api/devices/${deviceId}/members/${approveTargetId}/approve`, {}),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 200 },
  ],
  [
    'PATCH /api/devices/:id/members/:userId',
    (b) => send(b, 'PATCH', `/api/devices/${deviceId}/members/${removeTargetId}`, { role: 'guest' }),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 200 },
  ],
  [
    'DELETE /api/devices/:id/members/:userId',
    (b) => send(b, 'DELETE', `/api/devices/${deviceId}/members/${removeTargetId}`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 204 },
  ],
  [
    'PUT /api/me/selected-device',
    (b) => send(b, 'PUT', '/api/me/selected-device', { deviceId }),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 200, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'GET /api/me/selected-device',
    (b) => b.get('/api/me/selected-device'),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'GET /api/devices/:id/picture (other workspaces: 404)',
    (b) => b.get(`/api/devices/${deviceId}/picture?size=thumb`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 200, guest: 200, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'PUT /api/devices/:id/picture',
    (b) => putBytes(b, `/api/devices/${deviceId}/picture`, picture),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 200 },
  ],
  [
    'DELETE /api/devices/:id/picture',
    (b) => send(b, 'DELETE', `/api/devices/${deviceId}/picture`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 403, otherAdmin: 404, admin: 200 },
  ],
  [
    'GET /api/users/:adminId/picture (people who work with the admin)',
    (b) => b.get(`/api/users/${adminId}/picture?size=thumb`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 404, guest: 200, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'PUT /api/me/picture',
    (b) => putBytes(b, '/api/me/picture', picture),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'GET /api/me/profile',
    (b) => b.get('/api/me/profile'),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'PATCH /api/me/profile',
    (b) => send(b, 'PATCH', '/api/me/profile', { jobTitle: 'Engineer' }),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'PUT /api/onboarding/picture',
    (b) => putBytes(b, '/api/onboarding/picture', picture),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'GET /api/devices',
    (b) => b.get('/api/devices'),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'POST /api/invitations/accept (a token that is not valid)',
    (b) => b.postJson('/api/invitations/accept', { token: 'n'.repeat(43) }),
    { anonymous: x, nonMember: 404, invited: 404, pending: 404, guest: 404, member: 404, otherAdmin: 404, admin: 404 },
  ],
  [
    'GET /api/onboarding',
    (b) => b.get('/api/onboarding'),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'PUT /api/onboarding',
    (b) => send(b, 'PUT', '/api/onboarding', { stepActive: 2, bodyPart: 'heart_and_thorax' }),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'POST /api/onboarding/complete (steps missing)',
    (b) => b.postJson('/api/onboarding/complete', {}),
    { anonymous: x, nonMember: 400, invited: 400, pending: 400, guest: 400, member: 400, otherAdmin: 400, admin: 400 },
  ],
  [
    'POST /api/devices (anyone signed in may create a workspace)',
    (b) => b.postJson('/api/devices', workspaceBody()),
    { anonymous: x, nonMember: 201, invited: 201, pending: 201, guest: 201, member: 201, otherAdmin: 201, admin: 201 },
  ],
  [
    'GET /api/devices/:id/subscription',
    (b) => b.get(`/api/devices/${deviceId}/subscription`),
    { anonymous: x, nonMember: 404, invited: 404, pending: 403, guest: 403, member: 200, otherAdmin: 404, admin: 200 },
  ],
  [
    'GET /api/support/requests (each sees their own)',
    (b) => b.get('/api/support/requests'),
    { anonymous: x, nonMember: 200, invited: 200, pending: 200, guest: 200, member: 200, otherAdmin: 200, admin: 200 },
  ],
  [
    'GET /api/support/inbox (support staff only, a flag no workspace role gives)',
    (b) => b.get('/api/support/inbox'),
    { anonymous: x, nonMember: 403, invited: 403, pending: 403, guest: 403, member: 403, otherAdmin: 403, admin: 403 },
  ],
];

describe('permission table of the device-workspace API', () => {
  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('left the workspace as the admin changed it (and as nobody else could)', async () => {
    const team = await json<{ items: { userId: string | null; info: string; role: string; status: string }[] }>(
      await browsers.admin.get(`/api/devices/${deviceId}/team`),
    );
    expect(team.items.find((item) => item.userId === approveTargetId)?.status).toBe('ok');
    expect(team.items.some((item) => item.userId === removeTargetId)).toBe(false);
    expect(team.items.some((item) => item.info === 'revoke.me@example.com')).toBe(false);
    expect(team.items.filter((item) => item.status === 'invited').map((item) => item.info)).toEqual(
      expect.arrayContaining([`new${inviteCounter}@example.com`]),
    );
    expect(team.items.filter((item) => item.info.startsWith('new'))).toHaveLength(1);
  });
});
