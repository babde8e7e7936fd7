import { authEndpoints, deviceEndpoints, pathOf, projectEndpoints } from '@insilico/contracts';

/**
 * Start-up requests made before the app's code has loaded (docs/decisions/projects-overview-speed.md). Every page
 * first needs the session, the workspaces and the selected workspace, and the app's own requests would start only
 * once its code has been evaluated (several hundred ms on a cold load). `startEarlyRequests` asks for them from an
 * inline script at the top of index.html; `takeEarlyResponse` hands each answer to the first GET of its path, once
 * (an answer must not be reused once the data may have changed).
 */
declare global {
  interface Window {
    __insilicoEarlyRequests?: Record<string, Promise<Response> | undefined>;
    /** On the projects overview: the overview URL of the selected workspace, once known (null: none asked for). */
    __insilicoEarlyOverview?: Promise<string | null>;
  }
}

/**
 * Where the app keeps the id of the user's selected workspace, as a hint for the next start (the server keeps the
 * selection itself): the first data of a page can then be asked for before the selected workspace has answered.
 */
export const selectedDeviceHintKey = 'insilico.selectedDevice';

/**
 * Set while the last profile call of this browser answered "no user" (401): the next start then asks only for the
 * session, not for workspaces that would answer 401 too (three 401s in the console on every signed-out load,
 * issue 14). Removed as soon as a user is known, so a signed-in start keeps its parallel requests.
 */
export const signedOutHintKey = 'insilico.signedOut';

/**
 * The URLs the inline script asks for, from the contracts' endpoints; handed to it as an argument, since the script
 * cannot import. `overview` keeps its `:deviceId` segment, filled in by the script.
 */
export interface EarlyRequestPaths {
  profile: string;
  devices: string;
  selectedDevice: string;
  overview: string;
}

export const earlyRequestPaths: EarlyRequestPaths = {
  profile: pathOf(authEndpoints.me, {}),
  devices: pathOf(deviceEndpoints.list, {}),
  selectedDevice: pathOf(deviceEndpoints.selected, {}),
  overview: projectEndpoints.overview.path,
};

/**
 * Runs as an inline classic script (vite.config.ts writes this function's source into index.html, called with
 * `earlyRequestPaths` and `selectedDeviceHintKey`), so it must stay self-contained: no imports and no names from
 * outside its body.
 *
 * It also asks for the first data of the page the app opens on where that is one request: the projects overview
 * (the URL `projectUrls.overview` builds, with the status filter read from the address as the page reads it;
 * features/projects/earlyOverview.test.ts holds them together). It asks at once for the workspace the hint names,
 * and again once the selected workspace has answered if that is another one: a stale hint costs one unused request,
 * never a wrong answer, because the app takes an early answer only for the URL it asks for.
 */
export function startEarlyRequests(
  win: Window,
  paths: EarlyRequestPaths,
  hintKey: string,
  signedOutKey?: string,
): void {
  const early: Record<string, Promise<Response>> = {};
  let signedOut = false;
  try {
    signedOut = signedOutKey !== undefined && win.localStorage.getItem(signedOutKey) !== null;
  } catch {
    // Storage may be unavailable: ask for everything, as for a signed-in user.
  }
  const ask = (path: string): Promise<Response> => {
    const request = win.fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    // A failed early request is not reported here (the app asks again itself), so callers may drop the promise.
    request.catch(() => undefined);
    early[path] = request;
    return request;
  };
  void ask(paths.profile);
  win.__insilicoEarlyRequests = early;
  if (signedOut) return;
  void ask(paths.devices);
  const selected = ask(paths.selectedDevice);
  win.__insilicoEarlyRequests = early;

  if (win.location.pathname.replace(/\/$/, '') !== '/projects/overview') return;
  const status = new URLSearchParams(win.location.search).get('status');
  const query =
    status === 'all' ? '' : `?status=${status === 'completed' || status === 'abandoned' ? status : 'active'}`;
  const overview = (deviceId: string) => paths.overview.replace(':deviceId', deviceId) + query;
  let hinted: string | null = null;
  try {
    hinted = win.localStorage.getItem(hintKey);
  } catch {
    // Storage may be unavailable (privacy settings): wait for the selected workspace instead.
  }
  // Only an id (one path segment) is taken from storage.
  if (hinted !== null && !/^[\w-]+$/.test(hinted)) hinted = null;
  if (hinted) void ask(overview(hinted));
  win.__insilicoEarlyOverview = selected
    .then((response) => (response.ok ? response.clone().json() : null))
    .then((body: { device?: { deviceId?: unknown } | null } | null) => {
      const deviceId = body?.device?.deviceId;
      if (typeof deviceId !== 'string') return null;
      if (deviceId !== hinted) void ask(overview(deviceId));
      return overview(deviceId);
    })
    .catch(() => null);
}

/** The overview URL the inline script asked for the selected workspace (once; null when there is none). */
export function takeEarlyOverviewUrl(): Promise<string | null> {
  const url = typeof window === 'undefined' ? undefined : window.__insilicoEarlyOverview;
  if (url) delete window.__insilicoEarlyOverview;
  return url ?? Promise.resolve(null);
}

/** Keeps for the next start whether this browser has a signed-in user (`signedOutHintKey`). */
export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.removeItem(signedOutHintKey);
    else window.localStorage.setItem(signedOutHintKey, '1');
  } catch {
    // Only a hint.
  }
}

/** Whether the last profile call of this browser answered "no user". */
export function wasSignedOut(): boolean {
  try {
    return window.localStorage.getItem(signedOutHintKey) !== null;
  } catch {
    return false;
  }
}

/** Keeps the selected workspace's id for the next start (`startEarlyRequests`); null forgets it. */
export function rememberSelectedDevice(deviceId: string | null): void {
  try {
    if (deviceId) window.localStorage.setItem(selectedDeviceHintKey, deviceId);
    else window.localStorage.removeItem(selectedDeviceHintKey);
  } catch {
    // Only a hint: without storage the next start waits for the selected workspace.
  }
}

export function takeEarlyResponse(path: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.__insilicoEarlyRequests;
  const response = early?.[path];
  if (response) delete early[path];
  return response;
}
