import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { roleRefusalMessages, seatsFullMessage } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import {
  createWorkspace,
  errorOf,
  invite,
  joinedMember,
  json,
  send,
  signedIn,
  workspaceBody,
  type Person,
} from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface SubscriptionBody {
  deviceId: string;
  plan: string;
  seats: number;
  seatsUsed: number;
  seatsAvailable: number;
  usage: { members: number; pendingApproval: number; openInvitations: number };
}

async function subscription(person: Person, deviceId: string): Promise<SubscriptionBody> {
  const response = await person.browser.get(`/api/devices/${deviceId}/subscription`);
  expect(response.status).toBe(200);
  return json(response);
}

/** The operator token the embedded server wrote into its data dir (absent with PostgreSQL). */
function operatorToken(): string | null {
  const file = join(server.dataDir, 'server.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { operatorToken: string }).operatorToken : null;
}

describe('subscriptions and seats', () => {
  it('counts members, pending users and open invitations as seats', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    expect(await subscription(admin, deviceId)).toEqual({
      deviceId,
      deviceName: 'Valve X',
      plan: 'team',
      seats: 10,
      seatsUsed: 1,
      seatsAvailable: 9,
      usage: { members: 1, pendingApproval: 0, openInvitations: 0 },
    });
    const member = await joinedMember(server, admin, deviceId, 'member');
    await joinedMember(server, admin, deviceId, 'member', { approve: false });
    expect((await invite(admin, deviceId, 'open.invite@example.com')).status).toBe(201);
    await invite(admin, deviceId, 'expired.invite@example.com');
    await server.context.db.executeSql(
      `update invitations set expires_at = now() - interval '1 minute' where email = 'expired.invite@example.com'`,
    );
    const seen = await subscription(member, deviceId);
    expect(seen).toMatchObject({
      seatsUsed: 4,
      seatsAvailable: 6,
      usage: { members: 2, pendingApproval: 1, openInvitations: 1 },
    });
  });

  it('refuses an invitation beyond the seats, and takes one again once a seat is free', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    await server.context.subscriptions.set({ deviceId, plan: 'trial', seats: 3 });
    expect((await invite(admin, deviceId, 'one@example.com')).status).toBe(201);
    const second = await json<{ invitationId: string }>(await invite(admin, deviceId, 'two@example.com'));
    expect(await errorOf(await invite(admin, deviceId, 'three@example.com'))).toEqual({
      status: 409,
      code: 'seats_full',
      message: seatsFullMessage(3),
    });
    expect(seatsFullMessage(3)).toBe(
      'All 3 seats of your plan are in use. Remove a member or contact support to add seats.',
    );
    expect(await subscription(admin, deviceId)).toMatchObject({ plan: 'trial', seatsUsed: 3, seatsAvailable: 0 });
    expect(
      (await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/invitations/${second.invitationId}`)).status,
    ).toBe(204);
    expect((await invite(admin, deviceId, 'three@example.com')).status).toBe(201);
  });

  it('holds two invitations sent at the same moment to the last seat', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    await server.context.subscriptions.set({ deviceId, plan: 'team', seats: 2 });
    const answers = await Promise.all([
      invite(admin, deviceId, 'race.a@example.com'),
      invite(admin, deviceId, 'race.b@example.com'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await subscription(admin, deviceId)).seatsUsed).toBe(2);
  });

  it('refuses a new workspace whose team is larger than its seats, and creates nothing', async () => {
    const admin = await signedIn(server);
    const team = Array.from({ length: 10 }, (_, index) => ({ email: `crowd${index}@example.com`, role: 'member' }));
    const refused = await admin.browser.postJson('/api/devices', workspaceBody({ team }));
    expect(await errorOf(refused)).toEqual({ status: 409, code: 'seats_full', message: seatsFullMessage(10) });
    expect(await json(await admin.browser.get('/api/devices'))).toEqual({ items: [] });
    expect((await admin.browser.postJson('/api/devices', workspaceBody({ team: team.slice(0, 9) }))).status).toBe(201);
  });

  it('is shown to admins and members; guests, pending users and others are refused', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const guest = await joinedMember(server, admin, deviceId, 'guest');
    const pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
    const stranger = await signedIn(server);
    expect(await errorOf(await guest.browser.get(`/api/devices/${deviceId}/subscription`))).toEqual({
      status: 403,
      code: 'forbidden',
      message: roleRefusalMessages.subscription,
    });
    expect((await errorOf(await pending.browser.get(`/api/devices/${deviceId}/subscription`))).code).toBe(
      'pending_approval',
    );
    expect((await errorOf(await stranger.browser.get(`/api/devices/${deviceId}/subscription`))).status).toBe(404);
    expect((await stranger.browser.get(`/api/devices/not-a-uuid/subscription`)).status).toBe(400);
  });

  it('is changed by an operator only: the loopback route with the token (embedded), never the API', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const token = operatorToken();
    const body = JSON.stringify({ deviceId, plan: 'enterprise', seats: 50 });
    const post = (authorization?: string) =>
      fetch(`${server.origin}/api/operator/subscription`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body,
      });
    // A browser session is no operator.
    expect((await admin.browser.postJson('/api/operator/subscription', JSON.parse(body))).status).toBe(
      token ? 403 : 404,
    );
    if (token) {
      expect((await post('Bearer wrong')).status).toBe(403);
      const changed = await post(`Bearer ${token}`);
      expect(changed.status).toBe(200);
      expect(await json(changed)).toMatchObject({ plan: 'enterprise', seats: 50, seatsUsed: 1 });
      const listed = await fetch(`${server.origin}/api/operator/workspaces`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await json<{ items: { deviceId: string; adminEmails: string[] }[] }>(listed)).items).toContainEqual(
        expect.objectContaining({ deviceId, adminEmails: [admin.account.email] }),
      );
    } else {
      // With PostgreSQL the operator command writes the database itself (no operator routes).
      expect((await post()).status).toBe(404);
      await server.context.subscriptions.set({ deviceId, plan: 'enterprise', seats: 50 });
    }
    expect(await subscription(admin, deviceId)).toMatchObject({ plan: 'enterprise', seats: 50 });
    await expect(
      server.context.subscriptions.set({ deviceId: '00000000-0000-4000-8000-000000000000', plan: 'team', seats: 5 }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
