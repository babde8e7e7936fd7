import type { TestBrowser } from '../../../test/helpers/browser';

/** Fixtures of the analysis suites. */

/** The signed-in user's id. */
export async function userIdOf(browser: TestBrowser): Promise<string> {
  return ((await (await browser.get('/api/auth/me')).json()) as { id: string }).id;
}

/** A PATCH of an analysis, with the revision in If-Match when given. */
export function patchAnalysis(
  browser: TestBrowser,
  path: string,
  body: unknown,
  revision?: number | string,
): Promise<Response> {
  return browser.request(path, {
    method: 'PATCH',
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(revision === undefined ? {} : { 'if-match': typeof revision === 'number' ? `"${revision}"` : revision }),
    },
  });
}
