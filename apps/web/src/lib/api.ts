import { apiErrorSchema, errorCodes } from '@insilico/contracts';
import { ApiError, clientErrorCodes } from './apiError';
import { takeEarlyResponse } from './earlyRequests';
import { assignLocation, loginUrl } from './browserLocation';
import { isMaintenanceAnswer, showMaintenanceNotice } from './maintenance';

/** Anything with zod's `parse`: the answer is validated against the contract before it is used. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as the raw body instead (picture uploads: the server judges the bytes, not the type). */
  file?: Blob;
  /** Validates a 2xx JSON answer; without it the answer is ignored and `undefined` returned. */
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
  /**
   * False for calls of shell widgets (e.g. the workspace switcher): their 401 is thrown like any
   * error and the page's own calls and the profile call decide about sign-in. Default true.
   */
  redirectOnUnauthenticated?: boolean;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function errorFrom(response: Response, body: unknown): ApiError {
  const parsed = apiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(response.status, code, message, details);
  }
  const reason = response.statusText || 'Request failed';
  return new ApiError(response.status, clientErrorCodes.http, `${reason} (status ${response.status})`);
}

/**
 * Calls the workspace API: same-origin cookies, JSON in and out, errors as `ApiError`.
 * A 503 `maintenance` answer sends the whole page to the maintenance notice; a 401 from any call
 * but the profile call sends it through sign-in and back.
 */
export async function apiFetch<T = undefined>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const response = await send(path, request);
  const json = await readJson(response);
  const { schema } = request;
  if (!schema) return undefined as T;
  try {
    return schema.parse(json);
  } catch {
    throw new ApiError(
      response.status,
      clientErrorCodes.invalidResponse,
      'The server sent an answer this page does not understand.',
    );
  }
}

/**
 * Calls a workspace file export (a PDF, a ZIP): the same request and errors as `apiFetch`; answers the file and the
 * name the server gave it (Content-Disposition).
 */
export async function apiFetchFile(
  path: string,
  request: Omit<ApiRequest<undefined>, 'schema'> = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send(path, request);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return { blob: await response.blob(), fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
}

/** Sends the request; a non-2xx answer is thrown as `ApiError` (maintenance and sign-in handled), else answered. */
async function send(path: string, request: ApiRequest<unknown>): Promise<Response> {
  const { method = 'GET', body, file, signal, redirectOnUnauthenticated = true } = request;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (file) headers['Content-Type'] = file.type || 'application/octet-stream';
  else if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    const early = method === 'GET' && !signal ? takeEarlyResponse(path) : undefined;
    response = await (early ??
      fetch(path, {
        method,
        headers,
        body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
        credentials: 'same-origin',
        signal,
      }));
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(
      0,
      clientErrorCodes.network,
      'The server could not be reached. Check your connection and try again.',
    );
  }

  if (!response.ok) {
    const error = errorFrom(response, await readJson(response));
    if (isMaintenanceAnswer(response.status, error.code)) showMaintenanceNotice();
    // A session that ended (idle, signed out elsewhere) sends the page back through sign-in.
    // The profile call itself is left to UserProvider, whose 401 means "no user" (spec §7).
    if (
      redirectOnUnauthenticated &&
      response.status === 401 &&
      error.code === errorCodes.unauthenticated &&
      path !== '/api/auth/me'
    ) {
      assignLocation(loginUrl(`${window.location.pathname}${window.location.search}`));
    }
    throw error;
  }
  return response;
}
