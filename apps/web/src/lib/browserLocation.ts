import { authEndpoints, pathOf } from '@insilico/contracts';

/**
 * Full-page navigation (sign-in, sign-out, maintenance notice). One seam so tests can observe
 * redirects: jsdom's `window.location` cannot be spied on.
 */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** The login endpoint with a `returnTo` that brings the visitor back to `pathAndQuery`. */
export function loginUrl(pathAndQuery: string): string {
  return pathOf(authEndpoints.login, {}, { returnTo: pathAndQuery });
}
