import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
// RouterProvider from 'react-router' (see routes.test.tsx): one copy of the router context.
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { OnboardingState } from '@insilico/contracts';
import { appRoutes } from '../../../app/routes';
import { UserProvider } from '../../../app/user/UserProvider';
import { jsonResponse, renderWithProviders, testUser } from '../../../../test/helpers/renderWithProviders';

// Whole pages with MUI on a shared, busy machine: give the first render time.
configure({ asyncUtilTimeout: 5000 });

const fetchMock = vi.fn<typeof fetch>();

const baseState: OnboardingState = {
  bodyPart: 'heart_and_thorax',
  developmentPhase: ['clinical_trial'],
  deviceInfo: null,
  yourCompany: null,
  yourTeam: [],
  stepActive: 3,
  stepInfo: {},
};

const device = {
  deviceId: '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11',
  deviceName: 'Stent S',
  devicePicture: null,
  datetimeCreation: '2026-11-21T10:00:00.000Z',
  role: 'admin',
  userStatus: 'ok',
  isAdmin: true,
} as const;

interface Api {
  devices: unknown[];
  state: OnboardingState;
  put?: (body: unknown) => Response;
  devicePicture?: string | null;
}

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

function mockApi(api: Api) {
  fetchMock.mockImplementation((input, init) => {
    const url = urlOf(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/auth/me') return Promise.resolve(jsonResponse(200, testUser));
    if (url.startsWith('/api/notifications'))
      return Promise.resolve(jsonResponse(200, { items: [], hasUnseen: false, nextBefore: null }));
    if (url === '/api/devices') return Promise.resolve(jsonResponse(200, { items: api.devices }));
    if (url === '/api/me/selected-device' && method === 'GET')
      return Promise.resolve(jsonResponse(200, { device: api.devices[0] ?? null }));
    if (url === '/api/onboarding' && method === 'GET')
      return Promise.resolve(
        jsonResponse(200, {
          state: api.state,
          mayCreateWorkspace: true,
          workspaceCount: api.devices.length,
          devicePicture: api.devicePicture ?? null,
        }),
      );
    if (url === '/api/onboarding/picture' && method === 'PUT') {
      api.devicePicture = '/api/onboarding/picture?v=f1';
      return Promise.resolve(jsonResponse(200, { pictureUrl: api.devicePicture }));
    }
    if (url === '/api/onboarding' && method === 'PUT') {
      const body = JSON.parse(String(init?.body)) as OnboardingState;
      if (api.put) return Promise.resolve(api.put(body));
      api.state = body;
      return Promise.resolve(jsonResponse(200, body));
    }
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
}

function renderAt(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  renderWithProviders(
    <UserProvider>
      <RouterProvider router={router} />
    </UserProvider>,
  );
  return router;
}

function puts(): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => urlOf(input) === '/api/onboarding' && init?.method === 'PUT')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('onboarding pages', () => {
  it('sends a user without a workspace from / to the step the server has active', async () => {
    mockApi({ devices: [], state: baseState });
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Device details' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding/device-details');
  });

  it('sends a user without a workspace from /devices/setup too', async () => {
    mockApi({ devices: [], state: { ...baseState, stepActive: 4 } });
    const router = renderAt('/devices/setup');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your company' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding/your-company');
  });

  it('keeps a step not reached yet closed', async () => {
    mockApi({ devices: [], state: { ...baseState, stepActive: 2 } });
    const router = renderAt('/onboarding/your-team');
    expect(await screen.findByRole('heading', { level: 1, name: 'Development stage' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding/development-phase');
  });

  it('shows the home to a user with a workspace', async () => {
    mockApi({ devices: [device], state: { ...baseState, stepActive: 1 } });
    const router = renderAt('/devices/setup');
    expect(await screen.findByRole('heading', { level: 1, name: 'Home' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/devices/setup');
  });

  it('shows the body parts, only heart and thorax enabled', async () => {
    mockApi({ devices: [], state: { ...baseState, bodyPart: null, developmentPhase: null, stepActive: 1 } });
    renderAt('/onboarding/body-part');
    const heart = await screen.findByRole('radio', { name: 'Heart and thorax' });
    expect((heart as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Spinal (not available yet)' }).disabled).toBe(true);
    expect(screen.getAllByRole('radio')).toHaveLength(7);
  });

  it('device details: a picture is checked, sent at once, and shown from the saved state', async () => {
    mockApi({ devices: [], state: baseState });
    renderAt('/onboarding/device-details');
    const input = await screen.findByLabelText('Choose a file for the device picture');
    const text = new File(['not a picture'], 'device.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [text] } });
    expect(await screen.findByText('Upload one of these image types: jpg, jpeg, png')).toBeTruthy();
    const calls = () => fetchMock.mock.calls.filter(([url]) => urlOf(url) === '/api/onboarding/picture').length;
    expect(calls()).toBe(0);

    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])], 'device.jpg', {
      type: 'image/jpeg',
    });
    fireEvent.change(input, { target: { files: [png] } });
    expect(await screen.findByRole('button', { name: 'Change picture' })).toBeTruthy();
    expect(calls()).toBe(1);
    expect(screen.getByRole('img', { name: 'Device picture' }).getAttribute('src')).toBe(
      '/api/onboarding/picture?v=f1&size=thumb',
    );
  });

  it('device details: Other needs its text; Next saves the whole state and goes on', async () => {
    mockApi({ devices: [], state: baseState });
    const router = renderAt('/onboarding/device-details');
    fireEvent.change(await screen.findByRole('textbox', { name: /Device name/ }), {
      target: { value: 'Occluder X' },
    });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Device type/ }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Other' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Please specify the device type when you choose Other.')).toBeTruthy();
    expect(puts()).toHaveLength(0);

    fireEvent.change(screen.getByRole('textbox', { name: /Specify the device type/ }), {
      target: { value: 'Occluder' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your company' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding/your-company');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(puts()).toEqual([
      expect.objectContaining({
        bodyPart: 'heart_and_thorax',
        developmentPhase: ['clinical_trial'],
        deviceInfo: { deviceName: 'Occluder X', deviceType: 'other', deviceTypeOther: 'Occluder' },
        stepActive: 4,
      }),
    ]);
  });

  it('shows the server’s message when it refuses a step, and stays', async () => {
    mockApi({
      devices: [],
      state: baseState,
      put: () =>
        jsonResponse(400, { error: { code: 'invalid', message: 'Please complete the step “Body part” first.' } }),
    });
    const router = renderAt('/onboarding/device-details');
    fireEvent.change(await screen.findByRole('textbox', { name: /Device name/ }), { target: { value: 'Stent S' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Device type/ }));
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Stent' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByText('Please complete the step “Body part” first.');
    expect(alert).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding/device-details');
  });

  it('asks before leaving a step with unsaved input', async () => {
    mockApi({ devices: [], state: baseState });
    const router = renderAt('/onboarding/device-details');
    fireEvent.change(await screen.findByRole('textbox', { name: /Device name/ }), { target: { value: 'Stent S' } });
    fireEvent.click(screen.getByRole('link', { name: 'Back' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Are you sure you want to leave the page? Your progress will be lost.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding/development-phase'));
  });
});
