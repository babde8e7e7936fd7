import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unseenEventSchema } from '@insilico/contracts';
import { apiFetch } from './api';
import { ApiError } from './apiError';
import { assignLocation } from './browserLocation';

vi.mock('./browserLocation', () => ({
  assignLocation: vi.fn(),
  loginUrl: (path: string) => '/api/auth/login?returnTo=' + encodeURIComponent(path),
}));

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.mocked(assignLocation).mockReset();
  vi.unstubAllGlobals();
});

describe('apiFetch', () => {
  it('sends JSON with same-origin credentials and validates the answer', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { hasUnseen: true }));
    const answer = await apiFetch('/api/things', { method: 'POST', body: { all: true }, schema: unseenEventSchema });
    expect(answer).toEqual({ hasUnseen: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/things');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"all":true}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
  });

  it('sends a file as the raw body with its own type (octet-stream when it has none)', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { hasUnseen: false })));
    const file = new File([new Uint8Array([0x89, 0x50])], 'me.png', { type: 'image/png' });
    await apiFetch('/api/me/picture', { method: 'PUT', file, schema: unseenEventSchema });
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(file);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ 'Content-Type': 'image/png' });
    await apiFetch('/api/me/picture', { method: 'PUT', file: new Blob([new Uint8Array([1])]) });
    expect(fetchMock.mock.calls[1]?.[1]?.headers).toMatchObject({ 'Content-Type': 'application/octet-stream' });
  });

  it('sends no Content-Type without a body', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(apiFetch('/api/x')).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0]?.[1]?.headers).not.toHaveProperty('Content-Type');
  });

  it('turns an error body into an ApiError with status, code and message', async () => {
    fetchMock.mockResolvedValue(jsonResponse(409, { error: { code: 'conflict', message: 'Already there' } }));
    const error = await caught(apiFetch('/api/x'));
    expect(error).toMatchObject({ status: 409, code: 'conflict', message: 'Already there' });
  });

  it('keeps the status when the error body is not the API shape', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502 }));
    const error = await caught(apiFetch('/api/x'));
    expect(error.status).toBe(502);
    expect(error.code).toBe('http_error');
  });

  it('reports a network failure as status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await caught(apiFetch('/api/x'));
    expect(error.status).toBe(0);
    expect(error.code).toBe('network');
  });

  it('sends the page to the maintenance notice on 503 maintenance', async () => {
    fetchMock.mockResolvedValue(jsonResponse(503, { error: { code: 'maintenance', message: 'Back at 10:00' } }));
    const error = await caught(apiFetch('/api/x'));
    expect(error.status).toBe(503);
    expect(assignLocation).toHaveBeenCalledWith('/maintenance.html');
  });

  it('sends the page through sign-in when a call answers 401, but not for the profile call', async () => {
    window.history.replaceState(null, '', '/projects/overview?stage=concept');
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: 'unauthenticated', message: 'Please sign in.' } }));
    expect((await caught(apiFetch('/api/notifications'))).status).toBe(401);
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/login?returnTo=%2Fprojects%2Foverview%3Fstage%3Dconcept');
    vi.mocked(assignLocation).mockReset();
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: 'unauthenticated', message: 'Please sign in.' } }));
    await caught(apiFetch('/api/auth/me'));
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('leaves a 401 of a shell widget’s call to the page (redirectOnUnauthenticated: false)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: 'unauthenticated', message: 'Please sign in.' } }));
    const error = await caught(apiFetch('/api/devices', { redirectOnUnauthenticated: false }));
    expect(error.status).toBe(401);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('does not treat other 503 answers as maintenance', async () => {
    fetchMock.mockResolvedValue(jsonResponse(503, { error: { code: 'internal', message: 'Database down' } }));
    await caught(apiFetch('/api/x'));
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('rejects an answer that does not match the contract', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { hasUnseen: 'yes' }));
    const error = await caught(apiFetch('/api/x', { schema: unseenEventSchema }));
    expect(error).toMatchObject({ status: 200, code: 'invalid_response' });
  });
});
