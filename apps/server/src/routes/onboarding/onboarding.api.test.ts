import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { errorOf, json, mailedToken, send, signedIn } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const company = {
  companyName: 'Cardio Inc',
  country: 'US',
  state: 'CA',
  streetAddress: '1 Main',
  city: 'LA',
  zipCode: '90001',
};
const steps = [
  { stepActive: 2, bodyPart: 'heart_and_thorax' },
  { stepActive: 3, developmentPhase: ['clinical_trial'] },
  { stepActive: 4, deviceInfo: { deviceName: 'Stent S', deviceType: 'stent' } },
  { stepActive: 5, yourCompany: company },
  { stepActive: 6, yourTeam: [{ email: 'team.mate@example.com', role: 'member' }] },
];

interface State {
  stepActive: number;
  bodyPart: string | null;
  developmentPhase: string[] | null;
  deviceInfo: unknown;
  yourCompany: unknown;
  yourTeam: unknown[];
  stepInfo: Record<string, unknown>;
}

describe('onboarding', () => {
  it('saves the state after every step, continues in another browser, and completes into a workspace', async () => {
    const person = await signedIn(server);
    expect(await json(await person.browser.get('/api/onboarding'))).toEqual({
      state: {
        bodyPart: null,
        developmentPhase: null,
        deviceInfo: null,
        yourCompany: null,
        yourTeam: [],
        stepActive: 1,
        stepInfo: {},
      },
      mayCreateWorkspace: true,
      workspaceCount: 0,
      devicePicture: null,
    });
    let state: Record<string, unknown> = {};
    for (const step of steps.slice(0, 3)) {
      state = { ...state, ...step, stepInfo: { visited: step.stepActive } };
      const saved = await send(person.browser, 'PUT', '/api/onboarding', state);
      expect(saved.status).toBe(200);
    }
    const elsewhere = new TestBrowser(server.origin);
    await signIn(elsewhere, person.account, '/onboarding/device-details');
    const resumed = await json<{ state: State }>(await elsewhere.get('/api/onboarding'));
    expect(resumed.state).toMatchObject({
      stepActive: 4,
      bodyPart: 'heart_and_thorax',
      developmentPhase: ['clinical_trial'],
      deviceInfo: { deviceName: 'Stent S', deviceType: 'stent' },
      yourCompany: null,
      stepInfo: { visited: 4 },
    });
    for (const step of steps.slice(3)) {
      state = { ...state, ...step };
      expect((await send(elsewhere, 'PUT', '/api/onboarding', state)).status).toBe(200);
    }
    const completed = await elsewhere.postJson('/api/onboarding/complete', {});
    expect(completed.status).toBe(201);
    const result = await json<{
      device: Record<string, unknown>;
      invitations: { email: string; role: string }[];
    }>(completed);
    expect(result.device).toMatchObject({
      deviceName: 'Stent S',
      deviceType: 'stent',
      bodyParts: ['heart_and_thorax'],
      deviceDevPhase: ['clinical_trial'],
      companyName: 'Cardio Inc',
      country: 'US',
      countryState: 'CA',
      dataRegion: 'us',
      role: 'admin',
      userStatus: 'ok',
      isAdmin: true,
    });
    expect(result.invitations).toEqual([expect.objectContaining({ email: 'team.mate@example.com', role: 'member' })]);
    expect(await mailedToken(server, 'team.mate@example.com')).toMatch(/^[\w-]{40,}$/);
    const after = await json<{ state: State; workspaceCount: number }>(await person.browser.get('/api/onboarding'));
    expect(after.state.stepActive).toBe(1);
    expect(after.workspaceCount).toBe(1);
    expect(
      (await json<{ device: { deviceId: string } }>(await person.browser.get('/api/me/selected-device'))).device
        .deviceId,
    ).toBe(result.device.deviceId);
  });

  it.each([
    [{ stepActive: 2, bodyPart: 'spinal' }, 'Only Heart and thorax can be chosen for now.'],
    [
      { stepActive: 3, bodyPart: 'heart_and_thorax', developmentPhase: ['animal_testing'] },
      'Animal testing is not available yet.',
    ],
    [{ stepActive: 3, bodyPart: 'heart_and_thorax', developmentPhase: [] }, 'Choose at least one development stage.'],
    [
      {
        stepActive: 4,
        bodyPart: 'heart_and_thorax',
        developmentPhase: ['clinical_trial'],
        deviceInfo: { deviceName: 'D', deviceType: 'other' },
      },
      'Please specify the device type when you choose Other.',
    ],
    [{ stepActive: 5, yourCompany: { ...company, country: 'ZZ' } }, 'Choose the country from the list.'],
    [
      { stepActive: 5, yourCompany: { ...company, state: null } },
      'Choose the state for a company in the United States.',
    ],
    [{ stepActive: 5, yourCompany: { ...company, state: 'XX' } }, 'Choose the state from the list.'],
    [{ stepActive: 3, bodyPart: 'heart_and_thorax' }, 'Please complete the step “Development stage” first.'],
  ])('refuses %j with 400 and a message, keeping the saved state', async (body, message) => {
    const person = await signedIn(server);
    expect((await send(person.browser, 'PUT', '/api/onboarding', steps[0])).status).toBe(200);
    expect(await errorOf(await send(person.browser, 'PUT', '/api/onboarding', body))).toEqual({
      status: 400,
      code: 'invalid',
      message,
    });
    expect((await json<{ state: State }>(await person.browser.get('/api/onboarding'))).state).toMatchObject({
      stepActive: 2,
      bodyPart: 'heart_and_thorax',
      developmentPhase: null,
    });
  });

  it('refuses malformed state and an early completion', async () => {
    const person = await signedIn(server);
    expect((await send(person.browser, 'PUT', '/api/onboarding', { stepActive: 7 })).status).toBe(400);
    expect((await send(person.browser, 'PUT', '/api/onboarding', { stepActive: 2, bodyPart: 'tail' })).status).toBe(
      400,
    );
    expect((await send(person.browser, 'PUT', '/api/onboarding', { bodyPart: 'heart_and_thorax' })).status).toBe(400);
    expect(await errorOf(await person.browser.postJson('/api/onboarding/complete', {}))).toEqual({
      status: 400,
      code: 'invalid',
      message: 'Please complete the step “Body part” first.',
    });
    expect(await json(await person.browser.get('/api/devices'))).toEqual({ items: [] });
  });

  it('needs a session', async () => {
    const anonymous = new TestBrowser(server.origin);
    expect((await anonymous.get('/api/onboarding')).status).toBe(401);
    expect((await send(anonymous, 'PUT', '/api/onboarding', { stepActive: 1 })).status).toBe(401);
    expect((await anonymous.postJson('/api/onboarding/complete', {})).status).toBe(401);
  });
});
