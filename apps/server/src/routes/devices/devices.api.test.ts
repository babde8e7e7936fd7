import { workspaceNotFoundMessage } from '../../policies/workspace.policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from '../../../test/factories/project-rows';
import { TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import {
  createWorkspace,
  errorOf,
  joinedMember,
  json,
  send,
  signedIn,
  workspaceBody,
  type CreatedDevice,
} from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface DeviceDetail extends CreatedDevice {
  deviceType: string;
  deviceTypeOther: string | null;
  bodyParts: string[];
  deviceDevPhase: string[];
  companyName: string;
  country: string;
  countryState: string | null;
  dataRegionChangeable: boolean;
  deviceUsers: number;
  datetimeCreation: string;
}

describe('device workspaces', () => {
  it('creates a workspace: the creator is its admin, it is selected, the region is proposed from the country', async () => {
    const creator = await signedIn(server);
    expect(await json(await creator.browser.get('/api/devices'))).toEqual({ items: [] });
    expect(await json(await creator.browser.get('/api/me/selected-device'))).toEqual({ device: null });

    const response = await creator.browser.postJson(
      '/api/devices',
      workspaceBody({
        developmentStages: ['concept_and_design_feasibility', 'clinical_trial'],
        deviceInfo: { deviceName: 'Heart pump', deviceType: 'other', deviceTypeOther: 'Ventricular assist' },
        company: {
          companyName: 'Pump Inc',
          country: 'us',
          state: 'ma',
          streetAddress: '1 Main St',
          city: 'Boston',
          zipCode: '02108',
        },
        team: [{ email: 'Colleague.One@Example.com', role: 'guest' }],
      }),
    );
    expect(response.status).toBe(201);
    const created = await json<{ device: DeviceDetail; invitations: { email: string; role: string }[] }>(response);
    expect(created.device).toMatchObject({
      deviceName: 'Heart pump',
      deviceType: 'other',
      deviceTypeOther: 'Ventricular assist',
      bodyParts: ['heart_and_thorax'],
      deviceDevPhase: ['concept_and_design_feasibility', 'clinical_trial'],
      companyName: 'Pump Inc',
      country: 'US',
      countryState: 'MA',
      dataRegion: 'us',
      dataRegionChangeable: true,
      role: 'admin',
      userStatus: 'ok',
      isAdmin: true,
      deviceUsers: 1,
    });
    expect(Date.parse(created.device.datetimeCreation)).not.toBeNaN();
    expect(created.invitations).toEqual([
      expect.objectContaining({ email: 'colleague.one@example.com', role: 'guest' }),
    ]);
    const mail = (await server.context.mail.outbox()).find((found) => found.to === 'colleague.one@example.com');
    expect(mail?.text).toContain(`${server.origin}/accept-invitation?token=`);

    const list = await json<{ items: CreatedDevice[] }>(await creator.browser.get('/api/devices'));
    expect(list.items).toEqual([expect.objectContaining({ deviceId: created.device.deviceId, isAdmin: true })]);
    expect(
      (await json<{ device: CreatedDevice }>(await creator.browser.get('/api/me/selected-device'))).device.deviceId,
    ).toBe(created.device.deviceId);

    const german = await createWorkspace(creator);
    expect(german.dataRegion).toBe('eu');
    expect(
      (await json<{ device: CreatedDevice }>(await creator.browser.get('/api/me/selected-device'))).device.deviceId,
    ).toBe(german.deviceId);
    const chosen = await send(creator.browser, 'PUT', '/api/me/selected-device', { deviceId: created.device.deviceId });
    expect(chosen.status).toBe(200);
    expect(
      (await json<{ device: CreatedDevice }>(await creator.browser.get('/api/me/selected-device'))).device.deviceId,
    ).toBe(created.device.deviceId);
  });

  it.each([
    [{ bodyParts: ['spinal'] }, 'Only Heart and thorax can be chosen for now.'],
    [{ developmentStages: ['animal_testing'] }, 'Animal testing is not available yet.'],
    [{ deviceInfo: { deviceName: 'X', deviceType: 'other' } }, 'Please specify the device type when you choose Other.'],
    [
      {
        company: { companyName: 'C', country: 'XX', streetAddress: 'S', city: 'C', zipCode: '1' },
      },
      'Choose the country from the list.',
    ],
    [
      {
        company: { companyName: 'C', country: 'US', streetAddress: 'S', city: 'C', zipCode: '1' },
      },
      'Choose the state for a company in the United States.',
    ],
    [
      {
        company: { companyName: 'C', country: 'DE', state: 'CA', streetAddress: 'S', city: 'C', zipCode: '1' },
      },
      'A state is only given for a company in the United States.',
    ],
  ])('refuses %j with 400 and a message, creating nothing', async (overrides, message) => {
    const person = await signedIn(server);
    // Only the sign-up's confirmation so far; the refused workspace must not add a mail.
    const mailsBefore = await server.context.mail.outbox(500, person.account.email);
    const refused = await errorOf(await person.browser.postJson('/api/devices', workspaceBody(overrides)));
    expect(refused).toEqual({ status: 400, code: 'invalid', message });
    expect(await json(await person.browser.get('/api/devices'))).toEqual({ items: [] });
    expect(await server.context.mail.outbox(500, person.account.email)).toEqual(mailsBefore);
  });

  it('refuses malformed input with 400 (unknown enum values, missing fields)', async () => {
    const person = await signedIn(server);
    expect((await person.browser.postJson('/api/devices', workspaceBody({ bodyParts: ['tail'] }))).status).toBe(400);
    expect((await person.browser.postJson('/api/devices', { deviceInfo: { deviceName: 'X' } })).status).toBe(400);
    expect((await person.browser.get('/api/devices/not-a-uuid')).status).toBe(400);
    expect(await json(await person.browser.get('/api/devices'))).toEqual({ items: [] });
  });

  it('lets an admin read and change the device; members and guests only read it', async () => {
    const admin = await signedIn(server);
    const device = await createWorkspace(admin);
    const path = `/api/devices/${device.deviceId}`;
    const changed = await send(admin.browser, 'PATCH', path, {
      deviceInfo: { deviceName: 'Valve Y', deviceType: 'stent' },
      company: {
        companyName: 'Cardio AG',
        country: 'CH',
        streetAddress: 'Bahnhofstr. 2',
        city: 'Zürich',
        zipCode: '8001',
      },
      dataRegion: 'us',
    });
    expect(changed.status).toBe(200);
    expect(await json(changed)).toMatchObject({
      deviceName: 'Valve Y',
      deviceType: 'stent',
      companyName: 'Cardio AG',
      country: 'CH',
      dataRegion: 'us',
    });
    const bad = await errorOf(await send(admin.browser, 'PATCH', path, { developmentStages: ['animal_testing'] }));
    expect(bad).toEqual({ status: 400, code: 'invalid', message: 'Animal testing is not available yet.' });
    expect((await send(admin.browser, 'PATCH', path, {})).status).toBe(400);
    expect(await json(await admin.browser.get(path))).toMatchObject({
      deviceName: 'Valve Y',
      deviceDevPhase: ['concept_and_design_feasibility'],
      deviceUsers: 1,
    });

    const member = await joinedMember(server, admin, device.deviceId, 'member');
    const guest = await joinedMember(server, admin, device.deviceId, 'guest');
    for (const person of [member, guest]) {
      // Read-only: /manage-device and /company-info show the details to every member.
      expect(await json(await person.browser.get(path))).toMatchObject({ companyName: 'Cardio AG', isAdmin: false });
      const change = await errorOf(await send(person.browser, 'PATCH', path, { dataRegion: 'eu' }));
      expect(change).toMatchObject({ status: 403, code: 'forbidden' });
      const summary = await json<{ items: CreatedDevice[] }>(await person.browser.get('/api/devices'));
      expect(summary.items).toEqual([expect.objectContaining({ deviceName: 'Valve Y', isAdmin: false })]);
    }
    expect((await json<{ dataRegion: string }>(await admin.browser.get(path))).dataRegion).toBe('us');
  });

  it('fixes the data region once the workspace holds data (a project)', async () => {
    const admin = await signedIn(server);
    const device = await createWorkspace(admin);
    const path = `/api/devices/${device.deviceId}`;
    expect(await json(await admin.browser.get(path))).toMatchObject({ dataRegion: 'eu', dataRegionChangeable: true });
    await insertProject(server, { deviceId: device.deviceId, team: [admin.id] });
    expect(await json(await admin.browser.get(path))).toMatchObject({ dataRegionChangeable: false });
    expect(await errorOf(await send(admin.browser, 'PATCH', path, { dataRegion: 'us' }))).toEqual({
      status: 409,
      code: 'data_region_fixed',
      message: 'The data region cannot change any more: this device workspace already holds data.',
    });
    // Saving other details with the same region still works.
    expect((await send(admin.browser, 'PATCH', path, { dataRegion: 'eu' })).status).toBe(200);
    expect((await json<{ dataRegion: string }>(await admin.browser.get(path))).dataRegion).toBe('eu');
  });

  it('isolates tenants: a user of workspace A can neither read, change nor select workspace B', async () => {
    const a = await signedIn(server);
    const b = await signedIn(server);
    await createWorkspace(a);
    const deviceB = await createWorkspace(b, { deviceInfo: { deviceName: 'B secret', deviceType: 'stent' } });
    const path = `/api/devices/${deviceB.deviceId}`;
    expect(await errorOf(await a.browser.get(path))).toEqual({
      status: 404,
      code: 'not_found',
      message: workspaceNotFoundMessage,
    });
    expect((await send(a.browser, 'PATCH', path, { dataRegion: 'us' })).status).toBe(404);
    expect((await send(a.browser, 'PUT', '/api/me/selected-device', { deviceId: deviceB.deviceId })).status).toBe(404);
    expect((await a.browser.get('/api/devices')).status).toBe(200);
    const listed = await json<{ items: CreatedDevice[] }>(await a.browser.get('/api/devices'));
    expect(listed.items.map((item) => item.deviceId)).not.toContain(deviceB.deviceId);
    expect((await json<{ dataRegion: string }>(await b.browser.get(path))).dataRegion).toBe('eu');
    // An id that exists nowhere answers like one of another tenant: no existence oracle.
    expect((await a.browser.get('/api/devices/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('needs a session', async () => {
    const anonymous = new TestBrowser(server.origin);
    expect((await anonymous.get('/api/devices')).status).toBe(401);
    expect((await anonymous.postJson('/api/devices', workspaceBody())).status).toBe(401);
    expect((await anonymous.get('/api/me/selected-device')).status).toBe(401);
  });
});
