const fallback = '/';
const probeOrigin = 'http://return-to.invalid';
// Control characters (CR/LF header injection, tabs browsers strip) and backslashes (browsers read `\` as `/`).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const forbiddenCharacters = /[\u0000-\u001f\u007f\\]/;

/**
 * The `returnTo` of a sign-in, made safe: a same-origin relative path (with query and fragment)
 * or `/`. Rejects absolute and scheme-relative URLs, backslash tricks, control characters, and
 * the same hidden behind one or more layers of percent-encoding or behind dot segments.
 *
 * The checks run on the input AND on the value that is finally used: URL normalisation removes
 * dot segments (`/.//host`, `/%2e%2e//host` become `//host`), so a harmless-looking input can
 * normalise into a scheme-relative URL. The answer is a fixed point: `safeReturnTo(x)` of an
 * answer is that answer again.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string') return fallback;
  const normalised = normalisedPath(raw);
  if (normalised === null) return fallback;
  // The value the browser will get must pass the same checks, and must not change when normalised again.
  if (normalisedPath(normalised) !== normalised) return fallback;
  return normalised;
}

/** The normalised same-origin path of `raw`, or null when it is not a plain same-origin path. */
function normalisedPath(raw: string): string | null {
  if (raw.length === 0 || raw.length > 2048 || !plainAtEveryLayer(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, probeOrigin);
  } catch {
    return null;
  }
  if (url.origin !== probeOrigin) return null;
  // Landing back on the sign-in endpoints would loop or sign the user straight out again.
  if (url.pathname.startsWith('/api/auth/') || url.pathname.startsWith('/oidc')) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return plainAtEveryLayer(path) ? path : null;
}

/** Peels percent-encoding up to four layers; every layer, dot segments removed, must be a plain path. */
function plainAtEveryLayer(value: string): boolean {
  let decoded = value;
  for (let layer = 0; layer < 4; layer += 1) {
    if (!isPlainPath(decoded)) return false;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return false;
    }
    if (next === decoded) return true;
    decoded = next;
  }
  return isPlainPath(decoded);
}

function isPlainPath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || forbiddenCharacters.test(value)) return false;
  // Also after dot-segment removal, which a proxy or the browser may apply to a decoded layer.
  try {
    return !new URL(value, probeOrigin).pathname.startsWith('//');
  } catch {
    return false;
  }
}
