import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  earlyRequestPaths,
  rememberSelectedDevice,
  selectedDeviceHintKey,
  startEarlyRequests,
  takeEarlyOverviewUrl,
  takeEarlyResponse,
} from '../../lib/earlyRequests';
import { primeEarlyOverview, projectUrls, useProjectOverview } from './api';

interface FakeWindow {
  fetch: (path: string) => Promise<Response>;
  location: { pathname: string; search: string };
  localStorage: Pick<Storage, 'getItem'>;
  __insilicoEarlyRequests?: Record<string, Promise<Response> | undefined>;
  __insilicoEarlyOverview?: Promise<string | null>;
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
  const inline = new Function(
    'window',
    'paths',
    'hintKey',
    `(${startEarlyRequests.toString()})(window, paths, hintKey);`,
  );
  inline(win, earlyRequestPaths, selectedDeviceHintKey);
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
    expect(await win.__insilicoEarlyOverview).toBe(expected);
  });

  it('asks for the selected workspace once it answers, when the hint is stale or missing', async () => {
    const stale = fakeWindow('/projects/overview', 'device-old', 'device-2');
    runInline(stale.win);
    await settle();
    const selected = projectUrls.overview('device-2', { status: 'active', search: '' });
    expect(stale.asked).toEqual([
      ...startup,
      projectUrls.overview('device-old', { status: 'active', search: '' }),
      selected,
    ]);
    expect(await stale.win.__insilicoEarlyOverview).toBe(selected);

    const tampered = fakeWindow('/projects/overview', '../../admin', null);
    runInline(tampered.win);
    await settle();
    expect(tampered.asked).toEqual(startup);

    const none = fakeWindow('/projects/overview', null, null);
    runInline(none.win);
    await settle();
    expect(none.asked).toEqual(startup);
    expect(await none.win.__insilicoEarlyOverview).toBeNull();
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

  it('puts the early overview into the cache before the page is drawn: its first render has the cards, no request', async () => {
    const url = projectUrls.overview('device-7', { status: 'active', search: '' });
    const overview = { groups: [], total: 0, canCreate: true };
    window.__insilicoEarlyRequests = { [url]: Promise.resolve(new Response(JSON.stringify(overview))) };
    window.__insilicoEarlyOverview = Promise.resolve(url);
    const fetched = vi.spyOn(window, 'fetch');
    await primeEarlyOverview();
    expect(await takeEarlyOverviewUrl()).toBeNull(); // taken once

    // The page and its groups both ask for the overview: neither asks the server.
    const { result } = renderHook(() => [
      useProjectOverview('device-7', { status: 'active', search: '' }),
      useProjectOverview('device-7', { status: 'active', search: '' }),
    ]);
    expect(result.current[0]?.data).toEqual(overview);
    expect(result.current[1]?.data).toEqual(overview);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetched).not.toHaveBeenCalled();
    fetched.mockRestore();
  });

  it('does not hold the first render for a late answer: the page shows its loading state and takes that answer', async () => {
    const url = projectUrls.overview('device-8', { status: 'active', search: '' });
    const overview = { groups: [], total: 0, canCreate: false };
    const answer = new Promise<Response>((resolve) =>
      setTimeout(() => resolve(new Response(JSON.stringify(overview))), 700),
    );
    window.__insilicoEarlyRequests = { [url]: answer };
    window.__insilicoEarlyOverview = Promise.resolve(url);
    const fetched = vi.spyOn(window, 'fetch');
    const started = Date.now();
    await primeEarlyOverview();
    expect(Date.now() - started).toBeLessThan(650);

    const { result } = renderHook(() => useProjectOverview('device-8', { status: 'active', search: '' }));
    expect(result.current.data).toBeUndefined();
    await waitFor(() => expect(result.current.data).toEqual(overview));
    expect(fetched).not.toHaveBeenCalled();
    fetched.mockRestore();
  });
});
