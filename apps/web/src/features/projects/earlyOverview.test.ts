import { afterEach, describe, expect, it } from 'vitest';
import {
  rememberSelectedDevice,
  selectedDeviceHintKey,
  startEarlyRequests,
  takeEarlyResponse,
} from '../../lib/earlyRequests';
import { projectUrls } from './api';

interface FakeWindow {
  fetch: (path: string) => Promise<Response>;
  location: { pathname: string; search: string };
  localStorage: Pick<Storage, 'getItem'>;
  __insilicoEarlyRequests?: Record<string, Promise<Response> | undefined>;
}

/** A window whose fetch records paths and answers the selected workspace with `selectedId`. */
function fakeWindow(address: string, hint: string | null, selectedId: string | null) {
  const asked: string[] = [];
  const url = new URL(address, 'http://localhost');
  const win: FakeWindow = {
    fetch: (path: string) => {
      asked.push(path);
      const body = path === '/api/me/selected-device' ? { device: selectedId ? { deviceId: selectedId } : null } : {};
      return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
    },
    location: { pathname: url.pathname, search: url.search },
    localStorage: { getItem: (key: string) => (key === selectedDeviceHintKey ? hint : null) },
  };
  return { win, asked };
}

/** Runs the function's source text as index.html does: it must not use any name from outside its body. */
function runInline(win: FakeWindow): void {
  const inline = new Function('window', 'hintKey', `(${startEarlyRequests.toString()})(window, hintKey);`);
  inline(win, selectedDeviceHintKey);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const startup = ['/api/auth/me', '/api/devices', '/api/me/selected-device'];

describe('early start-up requests (the inline script of index.html)', () => {
  afterEach(() => {
    delete window.__insilicoEarlyRequests;
    window.localStorage.clear();
  });

  it('asks for the session, the workspaces and the selected workspace on any page', async () => {
    const { win, asked } = fakeWindow('/cohorts', 'device-1', 'device-1');
    runInline(win);
    await settle();
    expect(asked).toEqual(startup);
    expect(Object.keys(win.__insilicoEarlyRequests ?? {})).toEqual(startup);
  });

  it.each([
    ['/projects/overview', 'active'],
    ['/projects/overview?status=completed', 'completed'],
    ['/projects/overview?status=abandoned', 'abandoned'],
    ['/projects/overview?status=all', 'all'],
    ['/projects/overview?status=nonsense', 'active'],
  ] as const)('on %s asks at once for the overview the page asks for (status %s)', async (address, status) => {
    const { win, asked } = fakeWindow(address, 'device-1', 'device-1');
    runInline(win);
    const expected = projectUrls.overview('device-1', { status, search: '' });
    expect(asked).toEqual([...startup, expected]);
    await settle();
    // The selected workspace is the hinted one: no second request.
    expect(asked).toEqual([...startup, expected]);
    expect(win.__insilicoEarlyRequests?.[expected]).toBeDefined();
  });

  it('asks for the selected workspace once it answers, when the hint is stale or missing', async () => {
    const stale = fakeWindow('/projects/overview', 'device-old', 'device-2');
    runInline(stale.win);
    await settle();
    expect(stale.asked).toEqual([
      ...startup,
      projectUrls.overview('device-old', { status: 'active', search: '' }),
      projectUrls.overview('device-2', { status: 'active', search: '' }),
    ]);

    const none = fakeWindow('/projects/overview', null, null);
    runInline(none.win);
    await settle();
    expect(none.asked).toEqual(startup);
  });

  it('hands each early answer to the first request of its path only', async () => {
    const answer = Promise.resolve(new Response('{}'));
    window.__insilicoEarlyRequests = { '/api/devices': answer };
    expect(takeEarlyResponse('/api/devices')).toBe(answer);
    expect(takeEarlyResponse('/api/devices')).toBeUndefined();
    expect(takeEarlyResponse('/api/auth/me')).toBeUndefined();
  });

  it('keeps the selected workspace as the hint for the next start and forgets it', () => {
    rememberSelectedDevice('device-9');
    expect(window.localStorage.getItem(selectedDeviceHintKey)).toBe('device-9');
    rememberSelectedDevice(null);
    expect(window.localStorage.getItem(selectedDeviceHintKey)).toBeNull();
  });
});
