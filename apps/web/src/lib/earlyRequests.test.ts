import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchUser } from '../app/user/fetchUser';
import { jsonResponse, testUser } from '../../test/helpers/renderWithProviders';
import {
  earlyRequestPaths,
  selectedDeviceHintKey,
  signedOutHintKey,
  startEarlyRequests,
  wasSignedOut,
} from './earlyRequests';

vi.mock('./browserLocation', () => ({ assignLocation: vi.fn(), loginUrl: (path: string) => path }));

function fakeWindow(signedOut: boolean) {
  const asked: string[] = [];
  const win = {
    location: { pathname: '/projects/overview', search: '' },
    localStorage: {
      getItem: (key: string) =>
        key === signedOutHintKey && signedOut ? '1' : key === selectedDeviceHintKey ? 'd-1' : null,
    },
    fetch: (path: string) => {
      asked.push(path);
      return Promise.resolve(new Response('{}', { status: 401 }));
    },
  } as unknown as Window;
  return { win, asked };
}

afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
  delete window.__insilicoEarlyRequests;
});

describe('start-up requests of a signed-out browser', () => {
  it('asks only for the session when the last start had no user (no workspace call answering 401)', () => {
    const out = fakeWindow(true);
    startEarlyRequests(out.win, earlyRequestPaths, selectedDeviceHintKey, signedOutHintKey);
    expect(out.asked).toEqual(['/api/auth/me']);

    const known = fakeWindow(false);
    startEarlyRequests(known.win, earlyRequestPaths, selectedDeviceHintKey, signedOutHintKey);
    expect(known.asked.slice(0, 3)).toEqual(['/api/auth/me', '/api/devices', '/api/me/selected-device']);
  });

  it('remembers the profile call’s answer: "no user" sets the hint, a user removes it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(jsonResponse(401, { error: { code: 'unauthenticated', message: 'Sign in.' } })),
      ),
    );
    expect(await fetchUser()).toBeNull();
    expect(wasSignedOut()).toBe(true);
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.resolve(jsonResponse(200, testUser))),
    );
    expect(await fetchUser()).toMatchObject({ id: 'u-1' });
    expect(wasSignedOut()).toBe(false);
  });
});
