import {
  apiErrorSchema,
  authEndpoints,
  errorCodes,
  pathOf,
  type EndpointDefinition,
  type PathParams,
} from '@insilico/contracts';
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

const unreachableMessage = 'The server could not be reached. Check your connection and try again.';

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
 * The error of a refused call. A 503 `maintenance` answer sends the whole page to the maintenance notice; a session
 * that ended (idle, signed out elsewhere) sends it back through sign-in. The profile call itself is left to
 * UserProvider, whose 401 means "no user" (spec §7).
 */
function refusal(path: string, response: Response, json: unknown, redirectOnUnauthenticated: boolean): ApiError {
  const error = errorFrom(response, json);
  if (isMaintenanceAnswer(response.status, error.code)) showMaintenanceNotice();
  if (
    redirectOnUnauthenticated &&
    response.status === 401 &&
    error.code === errorCodes.unauthenticated &&
    path !== pathOf(authEndpoints.me, {})
  ) {
    assignLocation(loginUrl(`${window.location.pathname}${window.location.search}`));
  }
  return error;
}

/**
 * Calls the workspace API: same-origin cookies, JSON in and out, errors as `ApiError`.
 * A 503 `maintenance` answer sends the whole page to the maintenance notice; a 401 from any call
 * but the profile call sends it through sign-in and back.
 */
export async function apiFetch<T = undefined>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const { method = 'GET', body, file, schema, signal, redirectOnUnauthenticated = true } = request;
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
    throw new ApiError(0, clientErrorCodes.network, unreachableMessage);
  }

  const json = await readJson(response);
  if (!response.ok) throw refusal(path, response, json, redirectOnUnauthenticated);
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
 * Calls an endpoint defined in `@insilico/contracts` (docs/decisions/endpoints-in-contracts.md): the method comes from
 * its definition and the URL from `pathOf`, so no path is written here by hand; otherwise as `apiFetch`.
 */
export function apiCall<E extends EndpointDefinition, T = undefined>(
  endpoint: E,
  params: PathParams<E['path']>,
  request: Omit<ApiRequest<T>, 'method'> = {},
): Promise<T> {
  return apiFetch(pathOf(endpoint, params), { ...request, method: endpoint.method });
}

/**
 * Posts JSON to the workspace API and answers the file it sends back (a report the server makes on request), with
 * the file name of its Content-Disposition; refusals as `apiFetch`'s.
 */
export async function apiPostForFile(path: string, body: unknown): Promise<{ blob: Blob; fileName: string | null }> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { Accept: 'application/pdf, application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, clientErrorCodes.network, unreachableMessage);
  }
  if (!response.ok) throw refusal(path, response, await readJson(response), true);
  const disposition = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return { blob: await response.blob(), fileName: disposition?.[1] ?? null };
}
