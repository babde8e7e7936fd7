/**
 * The answers public/early-requests.js asked for before the app's code ran. Each is handed out once, to the first
 * GET of its path; later calls fetch as usual (an answer must not be reused once the data may have changed).
 */
declare global {
  interface Window {
    __insilicoEarlyRequests?: Record<string, Promise<Response> | undefined>;
  }
}

export function takeEarlyResponse(path: string): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.__insilicoEarlyRequests;
  const response = early?.[path];
  if (response) delete early[path];
  return response;
}
