import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import {
  createWorkspace,
  errorOf,
  joinedMember,
  json,
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

interface State {
  stepActive: number;
  yourCompany: Record<string, unknown> | null;
}

const berlin = {
  companyName: 'Cardio GmbH',
  country: 'DE',
  state: null,
  streetAddress: 'Hauptstraße 1',
  city: 'Berlin',
  zipCode: '10115',
};

// Add device reuses the onboarding state but has no company step (spec §2 Add device).
describe('add device (a further workspace through the onboarding state)', () => {
  it('takes the company of the selected workspace, so the steps skip it, and selects the new workspace', async () => {
    const person = await signedIn(server);
    const first = await createWorkspace(person);
    const onboarding = await json<{ state: State; workspaceCount: number }>(
      await person.browser.get('/api/onboarding'),
    );
    expect(onboarding.workspaceCount).toBe(1);
    expect(onboarding.state).toMatchObject({ stepActive: 1, yourCompany: berlin });

    // The client sends what it has: here without any company at all.
    let state: Record<string, unknown> = { bodyPart: 'heart_and_thorax', stepActive: 2 };
    for (const step of [
      { stepActive: 3, developmentPhase: ['concept_and_design_feasibility'] },
      { stepActive: 4, deviceInfo: { deviceName: 'Second valve', deviceType: 'valve_repair' } },
      { stepActive: 6, yourTeam: [{ email: 'second.team@example.com', role: 'guest' }] },
    ]) {
      state = { ...state, ...step };
      const saved = await send(person.browser, 'PUT', '/api/onboarding', state);
      expect(saved.status).toBe(200);
      expect((await json<State>(saved)).yourCompany).toEqual(berlin);
    }
    const completed = await person.browser.postJson('/api/onboarding/complete', {});
    expect(completed.status).toBe(201);
    const { device } = await json<{ device: Record<string, unknown> }>(completed);
    expect(device).toMatchObject({ deviceName: 'Second valve', companyName: 'Cardio GmbH', dataRegion: 'eu' });
    expect(device.deviceId).not.toBe(first.deviceId);
    const selected = await json<{ device: { deviceId: string } }>(await person.browser.get('/api/me/selected-device'));
    expect(selected.device.deviceId).toBe(device.deviceId);
    const devices = await json<{ items: { deviceId: string; role: string }[] }>(
      await person.browser.get('/api/devices'),
    );
    expect(devices.items.map((item) => item.role)).toEqual(['admin', 'admin']);
  });

  it('gives a member the company of the workspace they work in', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin, {
      company: { ...berlin, companyName: 'Valve Works', country: 'US', state: 'CA', city: 'LA', zipCode: '90001' },
    });
    const member = await joinedMember(server, admin, deviceId, 'member');
    expect((await send(member.browser, 'PUT', '/api/me/selected-device', { deviceId })).status).toBe(200);
    const onboarding = await json<{ state: State }>(await member.browser.get('/api/onboarding'));
    expect(onboarding.state.yourCompany).toMatchObject({ companyName: 'Valve Works', country: 'US', state: 'CA' });
  });

  it('asks users without a workspace (or only waiting for approval) for their company', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
    for (const person of [await signedIn(server), pending]) {
      expect((await json<{ state: State }>(await person.browser.get('/api/onboarding'))).state.yourCompany).toBeNull();
      const refused = await send(person.browser, 'PUT', '/api/onboarding', {
        stepActive: 5,
        bodyPart: 'heart_and_thorax',
        developmentPhase: ['clinical_trial'],
        deviceInfo: { deviceName: 'D', deviceType: 'stent' },
      });
      expect(await errorOf(refused)).toMatchObject({
        status: 400,
        message: 'Please complete the step “Your company” first.',
      });
    }
  });
});
