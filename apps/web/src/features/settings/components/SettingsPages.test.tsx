import type { ReactElement } from 'react';
import useSWR from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
// RouterProvider from 'react-router' (see routes.test.tsx): one copy of the router context.
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Device } from '@insilico/contracts';
import { appRoutes } from '../../../app/routes';
import { UserProvider } from '../../../app/user/UserProvider';
import { jsonResponse, renderWithProviders, testUser } from '../../../../test/helpers/renderWithProviders';
import { testDevice } from '../../../../test/fixtures/device.fixtures';

configure({ asyncUtilTimeout: 5000 });

const fetchMock = vi.fn<typeof fetch>();

const device = testDevice;

const profile = { email: testUser.email, fullName: testUser.fullName, jobTitle: testUser.jobTitle, pictureUrl: null };

function urlOf(input: Parameters<typeof fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** The API as these pages see it; PATCH answers echo the change. */
function mockApi(current: Device) {
  fetchMock.mockImplementation((input, init) => {
    const url = urlOf(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (url === '/api/auth/me') return Promise.resolve(jsonResponse(200, testUser));
    if (url.startsWith('/api/notifications'))
      return Promise.resolve(jsonResponse(200, { items: [], hasUnseen: false, nextBefore: null }));
    if (url === '/api/devices') return Promise.resolve(jsonResponse(200, { items: [current] }));
    if (url === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device: current }));
    if (url === '/api/me/profile' && method === 'GET') return Promise.resolve(jsonResponse(200, profile));
    if (url === '/api/me/profile' && method === 'PATCH')
      return Promise.resolve(jsonResponse(200, { ...profile, ...body }));
    if (url === `/api/devices/${current.deviceId}` && method === 'GET')
      return Promise.resolve(jsonResponse(200, current));
    if (url === `/api/devices/${current.deviceId}` && method === 'PATCH') {
      const info = body.deviceInfo as { deviceName: string } | undefined;
      return Promise.resolve(jsonResponse(200, { ...current, ...(info ? { deviceName: info.deviceName } : {}) }));
    }
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'Not found' } }));
  });
}

function calls(method: string, url: string): Record<string, unknown>[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => urlOf(input) === url && init?.method === method)
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);
}

function renderAt(path: string, beside?: ReactElement) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  renderWithProviders(
    <UserProvider>
      <RouterProvider router={router} />
      {beside}
    </UserProvider>,
  );
  return router;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

// Whole pages with MUI forms on a shared, busy machine.
describe('settings pages', { timeout: 30_000 }, () => {
  it('/my-account: edits name and job title, e-mail read-only, Save sends the change', async () => {
    mockApi(device);
    renderAt('/my-account');
    const name = await screen.findByRole('textbox', { name: /Full name/ });
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(save.disabled).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'E-mail' }).readOnly).toBe(true);
    expect(screen.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe(testUser.passwordChangeUrl);
    // Log out is a form POST (the server signs out on POST only; a GET just asks to confirm).
    const submitted: HTMLFormElement[] = [];
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(submitted.map((form) => [form.method, new URL(form.action).pathname])).toEqual([
      ['post', '/api/auth/logout'],
    ]);
    submit.mockRestore();

    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(save);
    expect(await screen.findByText('Please enter your full name.')).toBeTruthy();
    expect(calls('PATCH', '/api/me/profile')).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'Ada King ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Job title' }), { target: { value: '' } });
    fireEvent.click(save);
    expect(await screen.findByText('Your profile is saved.')).toBeTruthy();
    expect(calls('PATCH', '/api/me/profile')).toEqual([{ fullName: 'Ada King', jobTitle: null }]);
  });

  it('/my-account: a saved name makes every list that shows people stale (team, comments, "created by")', async () => {
    mockApi(device);
    const teamKey = `/api/devices/${device.deviceId}/team`;
    const teamReads = () => fetchMock.mock.calls.filter(([input]) => urlOf(input) === teamKey).length;
    // A team list held in the cache while the user is on their account page.
    function TeamList() {
      useSWR(teamKey, (url: string) => fetch(url).then((response) => response.json()));
      return null;
    }
    renderAt('/my-account', <TeamList />);
    const name = await screen.findByRole('textbox', { name: /Full name/ });
    await waitFor(() => expect(teamReads()).toBe(1));
    fireEvent.change(name, { target: { value: 'Ada King' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your profile is saved.')).toBeTruthy();
    await waitFor(() => expect(teamReads()).toBe(2));
  });

  it('/my-account: asks before leaving with unsaved changes', async () => {
    mockApi(device);
    const router = renderAt('/my-account');
    fireEvent.change(await screen.findByRole('textbox', { name: /Full name/ }), { target: { value: 'Changed' } });
    void router.navigate('/help');
    expect(
      await screen.findByText('Are you sure you want to leave the page? Your progress will be lost.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my-account'));
  });

  it('/manage-device: an admin edits the details and saves them', async () => {
    mockApi(device);
    renderAt('/manage-device');
    const name = await screen.findByRole('textbox', { name: /Device name/ });
    expect(screen.getByRole('button', { name: 'Upload picture' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Animal testing (not available)' }).disabled).toBe(
      true,
    );
    fireEvent.change(name, { target: { value: 'Valve Y' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The device details are saved.')).toBeTruthy();
    expect(calls('PATCH', `/api/devices/${device.deviceId}`)).toEqual([
      {
        deviceInfo: { deviceName: 'Valve Y', deviceType: 'valve_replacement', deviceTypeOther: null },
        developmentStages: ['clinical_trial'],
      },
    ]);
  });

  it('/manage-device: a member sees the details read-only', async () => {
    mockApi({ ...device, role: 'member', isAdmin: false });
    renderAt('/manage-device');
    expect(
      await screen.findByText(
        'Only an admin of this device can change these details. Contact your device company admin.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Valve replacement')).toBeTruthy();
    expect(screen.getByText('United States (US)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upload picture' })).toBeNull();
  });

  it('/company-info: an admin edits the company (US, with its state)', async () => {
    mockApi(device);
    renderAt('/company-info');
    expect(await screen.findByRole('combobox', { name: /State/ })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /City/ }), { target: { value: 'Oakland' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The company info is saved.')).toBeTruthy();
    expect(calls('PATCH', `/api/devices/${device.deviceId}`)).toEqual([
      {
        company: {
          companyName: 'Cardio Inc',
          country: 'US',
          state: 'CA',
          streetAddress: '1 Main Street',
          city: 'Oakland',
          zipCode: '94105',
        },
      },
    ]);
  });

  it('/company-info: a guest reads the company', async () => {
    mockApi({ ...device, role: 'guest', isAdmin: false });
    renderAt('/company-info');
    expect(await screen.findByText('United States (US)')).toBeTruthy();
    expect(screen.getByText('California (CA)')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
