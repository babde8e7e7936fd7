import { vi } from 'vitest';
import { jsonResponse, testSelectedDevice } from './renderWithProviders';

/**
 * A test's own answer to a request (a promise where the test holds the answer back), or undefined for a path it does
 * not serve.
 */
export type ApiAnswer = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** The workspace a page test's user has selected: d-1, as a member (not its admin). */
export const memberSelectedDevice = { ...testSelectedDevice, role: 'member', isAdmin: false } as const;

/**
 * Replaces `fetch` with the test's API: `answer` first, then the selected workspace (`GET /api/me/selected-device`,
 * and the list of workspaces holding it), and 404 "No such API route." for anything else, as the server says it.
 * Answers the stub (its calls); `vi.unstubAllGlobals()` puts `fetch` back.
 */
export function stubApi(answer: ApiAnswer, device: object = memberSelectedDevice) {
  const stub = vi.fn<typeof fetch>((input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    const own = answer(url, init);
    if (own) return Promise.resolve(own);
    if (url.pathname === '/api/me/selected-device') return Promise.resolve(jsonResponse(200, { device }));
    if (url.pathname === '/api/devices') return Promise.resolve(jsonResponse(200, { items: [device] }));
    return Promise.resolve(jsonResponse(404, { error: { code: 'not_found', message: 'No such API route.' } }));
  });
  vi.stubGlobal('fetch', stub);
  return stub;
}
