import { roleRefusalMessages, type NotificationList } from '@insilico/contracts';
import { workspaceNotFoundMessage } from '../../policies/workspace.policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import {
  createWorkspace,
  errorOf,
  invite,
  joinedMember,
  json,
  mailedToken,
  send,
  signedIn,
} from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Member {
  userId: string | null;
  invitationId: string | null;
  info: string;
  fullName: string | null;
  role: string;
  status: string;
}

async function team(browser: TestBrowser, deviceId: string): Promise<{ items: Member[]; canManage: boolean }> {
  const response = await browser.get(`/api/devices/${deviceId}/team`);
  expect(response.status).toBe(200);
  return json(response);
}

describe('team and membership', () => {
  it('walks invited → pending_approval → ok, with a single-use link', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const colleague = await signedIn(server);
    const invited = await invite(admin, deviceId, colleague.account.email.toUpperCase(), 'guest');
    expect(invited.status).toBe(201);
    expect(await json(invited)).toMatchObject({ email: colleague.account.email, role: 'guest' });
    expect((await team(admin.browser, deviceId)).items).toEqual([
      expect.objectContaining({ userId: admin.id, role: 'admin', status: 'ok' }),
      expect.objectContaining({ userId: null, info: colleague.account.email, role: 'guest', status: 'invited' }),
    ]);
    const again = await errorOf(await invite(admin, deviceId, colleague.account.email));
    expect(again.status).toBe(409);
    expect(again.code).toBe('already_invited');

    const mail = (await server.context.mail.outbox()).find((found) => found.to === colleague.account.email);
    expect(mail?.subject).toBe('You are invited to the device workspace Valve X');
    const token = await mailedToken(server, colleague.account.email);
    expect(
      await server.context.db.executeSql('select 1 from invitations where token_hash = $1', [token]),
    ).toMatchObject({ rowCount: 0 });

    // Before accepting, the colleague is no member at all: the workspace is not there for them.
    expect(await errorOf(await colleague.browser.get(`/api/devices/${deviceId}/team`))).toMatchObject({
      status: 404,
      message: workspaceNotFoundMessage,
    });
    const accepted = await colleague.browser.postJson('/api/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(await json(accepted)).toMatchObject({
      device: { deviceId, deviceName: 'Valve X', role: 'guest', userStatus: 'pending_approval', isAdmin: false },
    });
    const pending = await errorOf(await colleague.browser.get(`/api/devices/${deviceId}/team`));
    expect(pending).toMatchObject({ status: 403, code: 'pending_approval' });
    expect(await json(await colleague.browser.get('/api/me/selected-device'))).toEqual({ device: null });
    expect((await team(admin.browser, deviceId)).items).toEqual([
      expect.objectContaining({ userId: admin.id }),
      expect.objectContaining({ userId: colleague.id, info: colleague.account.email, status: 'pending_approval' }),
    ]);

    // The link works once, whoever follows it.
    const stranger = await signedIn(server);
    expect(await errorOf(await stranger.browser.postJson('/api/invitations/accept', { token }))).toMatchObject({
      status: 409,
      code: 'invitation_used',
    });
    expect(await errorOf(await colleague.browser.postJson('/api/invitations/accept', { token }))).toMatchObject({
      status: 409,
    });

    const approved = await admin.browser.postJson(`/api/devices/${deviceId}/members/${colleague.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect(await json(approved)).toMatchObject({ userId: colleague.id, role: 'guest', status: 'ok' });
    expect(
      (await errorOf(await admin.browser.postJson(`/api/devices/${deviceId}/members/${colleague.id}/approve`, {})))
        .code,
    ).toBe('not_pending');
    // A guest may not see the team (issue 3 journey (d)); a member sees it read-only.
    expect(await errorOf(await colleague.browser.get(`/api/devices/${deviceId}/team`))).toEqual({
      status: 403,
      code: 'forbidden',
      message: roleRefusalMessages.team,
    });
    expect(
      (await send(admin.browser, 'PATCH', `/api/devices/${deviceId}/members/${colleague.id}`, { role: 'member' }))
        .status,
    ).toBe(200);
    const seen = await team(colleague.browser, deviceId);
    expect(seen.canManage).toBe(false);
    expect(seen.items.every((item) => item.status === 'ok')).toBe(true);
    expect(
      (await json<{ device: { deviceId: string } }>(await colleague.browser.get('/api/me/selected-device'))).device
        .deviceId,
    ).toBe(deviceId);
    expect((await errorOf(await invite(admin, deviceId, colleague.account.email))).code).toBe('already_member');
  });

  it('tells a pending user when an admin accepts them, with a link that opens the workspace', async () => {
    const admin = await signedIn(server);
    const { deviceId, deviceName } = await createWorkspace(admin);
    const pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
    const notifications = async () =>
      (await json<NotificationList>(await pending.browser.get('/api/notifications'))).items;
    expect(await notifications()).toEqual([]);
    expect((await admin.browser.postJson(`/api/devices/${deviceId}/members/${pending.id}/approve`, {})).status).toBe(
      200,
    );
    expect(await notifications()).toEqual([
      expect.objectContaining({
        kind: 'team.accepted',
        title: `You can now work in "${deviceName}"`,
        body: 'An admin accepted you as a member.',
        link: `/accept-invitation?device=${deviceId}`,
        seenAt: null,
      }),
    ]);
    // Nobody else hears of it, and a refused second approval tells nobody.
    expect((await admin.browser.postJson(`/api/devices/${deviceId}/members/${pending.id}/approve`, {})).status).toBe(
      409,
    );
    expect(await notifications()).toHaveLength(1);
    expect(
      (await json<NotificationList>(await admin.browser.get('/api/notifications'))).items.map((item) => item.kind),
    ).toEqual(['team.pending']);
  });

  it('tells every admin, by notification and by mail, that an invited user waits for approval', async () => {
    const admin = await signedIn(server);
    const { deviceId, deviceName } = await createWorkspace(admin);
    const otherAdmin = await joinedMember(server, admin, deviceId, 'admin');
    const member = await joinedMember(server, admin, deviceId, 'member');
    const adminNews = async (person: { browser: TestBrowser }) =>
      (await json<NotificationList>(await person.browser.get('/api/notifications'))).items.filter(
        (item) => item.kind === 'team.pending',
      );
    const before = (await adminNews(admin)).length;

    const pending = await joinedMember(server, admin, deviceId, 'guest', { approve: false });
    const { fullName, email } = pending.account;
    const expected = {
      kind: 'team.pending',
      title: `${fullName} waits for your approval in "${deviceName}"`,
      body: `${fullName} (${email}) accepted the invitation as a guest. Accept them, or remove them, on the team page.`,
      link: `/manage-team?device=${deviceId}`,
      seenAt: null,
    };
    expect((await adminNews(admin)).length).toBe(before + 1);
    expect((await adminNews(admin))[0]).toMatchObject(expected);
    expect((await adminNews(otherAdmin))[0]).toMatchObject(expected);
    // Members and the pending user themself are not told.
    expect(await adminNews(member)).toEqual([]);
    expect(await adminNews(pending)).toEqual([]);

    for (const to of [admin.account.email, otherAdmin.account.email]) {
      const mail = (await server.context.mail.outbox(50, to)).find((found) => found.subject === expected.title);
      expect(mail?.text).toContain(expected.body);
      expect(mail?.text).toContain(`/manage-team?device=${deviceId}`);
    }
    expect(
      (await server.context.mail.outbox(50, member.account.email)).some((found) => found.subject === expected.title),
    ).toBe(false);
  });

  it('refuses an expired, unknown or revoked invitation link', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const late = await signedIn(server);
    await invite(admin, deviceId, late.account.email);
    const token = await mailedToken(server, late.account.email);
    await server.context.db.executeSql(
      `update invitations set expires_at = now() - interval '1 minute' where device_id = $1 and email = $2`,
      [deviceId, late.account.email],
    );
    expect(await errorOf(await late.browser.postJson('/api/invitations/accept', { token }))).toEqual({
      status: 409,
      code: 'invitation_expired',
      message: 'This invitation has expired. Ask your device admin for a new invitation.',
    });
    expect((await team(admin.browser, deviceId)).items.map((item) => item.status)).toEqual(['ok']);
    expect(
      (await errorOf(await late.browser.postJson('/api/invitations/accept', { token: 'x'.repeat(43) }))).status,
    ).toBe(404);

    const revoked = await signedIn(server);
    const invitation = await json<{ invitationId: string }>(await invite(admin, deviceId, revoked.account.email));
    const revokedToken = await mailedToken(server, revoked.account.email);
    const path = `/api/devices/${deviceId}/invitations/${invitation.invitationId}`;
    expect((await send(admin.browser, 'DELETE', path)).status).toBe(204);
    expect((await send(admin.browser, 'DELETE', path)).status).toBe(404);
    expect((await revoked.browser.postJson('/api/invitations/accept', { token: revokedToken })).status).toBe(404);
    expect((await new TestBrowser(server.origin).postJson('/api/invitations/accept', { token })).status).toBe(401);
  });

  it('never lets the last admin be demoted or removed', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const self = `/api/devices/${deviceId}/members/${admin.id}`;
    expect(await errorOf(await send(admin.browser, 'PATCH', self, { role: 'member' }))).toEqual({
      status: 409,
      code: 'last_admin',
      message: 'The last admin of a device cannot be demoted. Make another team member admin first.',
    });
    expect(await errorOf(await send(admin.browser, 'DELETE', self))).toEqual({
      status: 409,
      code: 'last_admin',
      message: 'The last admin of a device cannot be removed. Make another team member admin first.',
    });
    // A pending admin does not count as a second admin.
    const pendingAdmin = await joinedMember(server, admin, deviceId, 'admin', { approve: false });
    expect((await send(admin.browser, 'PATCH', self, { role: 'guest' })).status).toBe(409);
    expect(
      (await admin.browser.postJson(`/api/devices/${deviceId}/members/${pendingAdmin.id}/approve`, {})).status,
    ).toBe(200);
    const demoted = await send(admin.browser, 'PATCH', self, { role: 'member' });
    expect(demoted.status).toBe(200);
    expect(await json(demoted)).toMatchObject({ role: 'member', status: 'ok' });
    // Now the former admin may no longer manage the team, and the new one is the last admin.
    expect((await send(admin.browser, 'PATCH', self, { role: 'admin' })).status).toBe(403);
    const other = `/api/devices/${deviceId}/members/${pendingAdmin.id}`;
    expect((await send(pendingAdmin.browser, 'DELETE', other)).status).toBe(409);
    expect((await send(pendingAdmin.browser, 'PATCH', other, { role: 'member' })).status).toBe(409);
    expect((await team(admin.browser, deviceId)).items.filter((item) => item.role === 'admin')).toHaveLength(1);
  });

  it('keeps one admin when two admins demote each other at the same moment', async () => {
    const first = await signedIn(server);
    const { deviceId } = await createWorkspace(first);
    const second = await joinedMember(server, first, deviceId, 'admin');
    const answers = await Promise.all([
      send(first.browser, 'PATCH', `/api/devices/${deviceId}/members/${second.id}`, { role: 'member' }),
      send(second.browser, 'PATCH', `/api/devices/${deviceId}/members/${first.id}`, { role: 'member' }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (await team(first.browser, deviceId)).items.filter((item) => item.role === 'admin');
    expect(admins).toHaveLength(1);
  });

  it('ends a removed member’s access at once', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const member = await joinedMember(server, admin, deviceId, 'member');
    expect((await team(member.browser, deviceId)).items).toHaveLength(2);
    expect((await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/members/${member.id}`)).status).toBe(204);
    expect(await errorOf(await member.browser.get(`/api/devices/${deviceId}/team`))).toEqual({
      status: 404,
      code: 'not_found',
      message: workspaceNotFoundMessage,
    });
    expect((await send(member.browser, 'PUT', '/api/me/selected-device', { deviceId })).status).toBe(404);
    expect(await json(await member.browser.get('/api/me/selected-device'))).toEqual({ device: null });
    expect(await json(await member.browser.get('/api/devices'))).toEqual({ items: [] });
    expect((await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/members/${member.id}`)).status).toBe(404);
  });

  it('isolates tenants: ids of another workspace answer 404, the workspace itself too', async () => {
    const adminA = await signedIn(server);
    const adminB = await signedIn(server);
    const a = await createWorkspace(adminA);
    const b = await createWorkspace(adminB);
    const memberOfB = await joinedMember(server, adminB, b.deviceId, 'member', { approve: false });
    const viaA = `/api/devices/${a.deviceId}/members/${memberOfB.id}`;
    expect((await adminA.browser.postJson(`${viaA}/approve`, {})).status).toBe(404);
    expect((await send(adminA.browser, 'PATCH', viaA, { role: 'admin' })).status).toBe(404);
    expect((await send(adminA.browser, 'DELETE', viaA)).status).toBe(404);
    const viaB = `/api/devices/${b.deviceId}/members/${memberOfB.id}`;
    expect((await adminA.browser.postJson(`${viaB}/approve`, {})).status).toBe(404);
    expect((await send(adminA.browser, 'DELETE', viaB)).status).toBe(404);
    expect((await adminA.browser.get(`/api/devices/${b.deviceId}/team`)).status).toBe(404);
    expect((await invite(adminA, b.deviceId, 'intruder@example.com')).status).toBe(404);
    const openOfB = (await team(adminB.browser, b.deviceId)).items;
    expect(openOfB).toEqual([
      expect.objectContaining({ userId: adminB.id }),
      expect.objectContaining({ userId: memberOfB.id, status: 'pending_approval' }),
    ]);
    const invitationOfB = await json<{ invitationId: string }>(await invite(adminB, b.deviceId, 'later@example.com'));
    expect(
      (await send(adminA.browser, 'DELETE', `/api/devices/${a.deviceId}/invitations/${invitationOfB.invitationId}`))
        .status,
    ).toBe(404);
    expect((await team(adminB.browser, b.deviceId)).items.map((item) => item.info)).toContain('later@example.com');
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    expect((await invite(admin, deviceId, 'not-an-email')).status).toBe(400);
    expect((await invite(admin, deviceId, 'ok@example.com', 'owner')).status).toBe(400);
    expect(await errorOf(await invite(admin, deviceId, admin.account.email))).toMatchObject({
      status: 400,
      message: 'You are in the team already; invite your colleagues.',
    });
    expect(
      (await send(admin.browser, 'PATCH', `/api/devices/${deviceId}/members/${admin.id}`, { role: 'x' })).status,
    ).toBe(400);
    expect((await admin.browser.postJson('/api/invitations/accept', { token: 'short' })).status).toBe(400);
    expect((await team(admin.browser, deviceId)).items).toHaveLength(1);
  });
});
