import { expect } from 'vitest';
import { newAccount, signUp, TestBrowser, type Account } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';

/** Fixtures shared by the device-workspace API suites (devices, team, onboarding, policy table). */

export interface Person {
  browser: TestBrowser;
  id: string;
  account: Account;
}

export async function signedIn(server: TestServer): Promise<Person> {
  const browser = new TestBrowser(server.origin);
  const account = newAccount();
  await signUp(browser, account, '/');
  const me = (await (await browser.get('/api/auth/me')).json()) as { id: string };
  return { browser, id: me.id, account };
}

/** A JSON request with any method (the test browser adds cookie and Origin). */
export function send(browser: TestBrowser, method: string, path: string, body?: unknown): Promise<Response> {
  return browser.request(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

export async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

export function workspaceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bodyParts: ['heart_and_thorax'],
    developmentStages: ['concept_and_design_feasibility'],
    deviceInfo: { deviceName: 'Valve X', deviceType: 'valve_replacement' },
    company: {
      companyName: 'Cardio GmbH',
      country: 'DE',
      streetAddress: 'Hauptstraße 1',
      city: 'Berlin',
      zipCode: '10115',
    },
    ...overrides,
  };
}

export interface CreatedDevice {
  deviceId: string;
  deviceName: string;
  dataRegion: string;
  role: string;
  userStatus: string;
  isAdmin: boolean;
}

export async function createWorkspace(person: Person, overrides: Record<string, unknown> = {}): Promise<CreatedDevice> {
  const response = await person.browser.postJson('/api/devices', workspaceBody(overrides));
  expect(response.status).toBe(201);
  return (await json<{ device: CreatedDevice }>(response)).device;
}

/** The accept token of the newest invitation mail to this address (read from the outbox). */
export async function mailedToken(server: TestServer, email: string): Promise<string> {
  const mail = (await server.context.mail.outbox(500)).find((found) => found.to === email.toLowerCase());
  const token = mail?.text.match(/\/accept-invitation\?token=([\w-]+)/)?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return token;
}

export async function invite(admin: Person, deviceId: string, email: string, role = 'member'): Promise<Response> {
  return admin.browser.postJson(`/api/devices/${deviceId}/invitations`, { email, role });
}

/**
 * Walks the whole membership path for a new person: the admin invites, the person signs up and
 * follows the link (pending_approval), and — unless `approve` is false — the admin accepts them (ok).
 */
export async function joinedMember(
  server: TestServer,
  admin: Person,
  deviceId: string,
  role: 'member' | 'admin' | 'guest',
  options: { approve?: boolean } = {},
): Promise<Person> {
  const person = await signedIn(server);
  expect((await invite(admin, deviceId, person.account.email, role)).status).toBe(201);
  const token = await mailedToken(server, person.account.email);
  expect((await person.browser.postJson('/api/invitations/accept', { token })).status).toBe(200);
  if (options.approve !== false)
    expect((await admin.browser.postJson(`/api/devices/${deviceId}/members/${person.id}/approve`, {})).status).toBe(
      200,
    );
  return person;
}

/** Everyone a permission table asks: from no session to the workspace's admin (the admin runs last). */
export const principals = [
  'anonymous',
  'nonMember',
  'invited',
  'pending',
  'guest',
  'member',
  'otherAdmin',
  'admin',
] as const;
export type Principal = (typeof principals)[number];

/** A workspace with one person of each principal, and each one's signed-in browser. */
export async function workspacePrincipals(
  server: TestServer,
): Promise<{ admin: Person; deviceId: string; browsers: Record<Principal, TestBrowser> }> {
  const admin = await signedIn(server);
  const { deviceId } = await createWorkspace(admin);
  const otherAdmin = await signedIn(server);
  await createWorkspace(otherAdmin);
  const invited = await signedIn(server);
  expect((await invite(admin, deviceId, invited.account.email)).status).toBe(201);
  const pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
  const guest = await joinedMember(server, admin, deviceId, 'guest');
  const member = await joinedMember(server, admin, deviceId, 'member');
  const browsers: Record<Principal, TestBrowser> = {
    anonymous: new TestBrowser(server.origin),
    nonMember: (await signedIn(server)).browser,
    invited: invited.browser,
    pending: pending.browser,
    guest: guest.browser,
    member: member.browser,
    otherAdmin: otherAdmin.browser,
    admin: admin.browser,
  };
  return { admin, deviceId, browsers };
}
