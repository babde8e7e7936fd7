const fallback = '/';
const probeOrigin = 'http://return-to.invalid';
// Control characters (CR/LF header injection, tabs browsers strip) and backslashes (browsers read `\` as `/`).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const forbiddenCharacters = /[\u0000-\u001f\u007f\\]/;

/**
 * The `returnTo` of a sign-in, made safe: a same-origin relative path (with query and fragment)
 * or `/`. Rejects absolute and scheme-relative URLs, backslash tricks, control characters, and
 * the same hidden behind one or more layers of percent-encoding.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return fallback;
  let decoded = raw;
  for (let layer = 0; layer < 4; layer += 1) {
    if (!isPlainPath(decoded)) return fallback;
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return fallback;
    }
    if (next === decoded) break;
    decoded = next;
  }
  if (!isPlainPath(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, probeOrigin);
  } catch {
    return fallback;
  }
  if (url.origin !== probeOrigin) return fallback;
  // Landing back on the sign-in endpoints would loop or sign the user straight out again.
  if (url.pathname.startsWith('/api/auth/') || url.pathname.startsWith('/oidc')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

function isPlainPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !forbiddenCharacters.test(value);
}
