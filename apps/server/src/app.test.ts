import { describe, expect, it } from 'vitest';
import { withoutSecrets } from './app';

describe('request logging', () => {
  it('drops the query of sign-in URLs (codes, state, token hints) and keeps other URLs', () => {
    expect(withoutSecrets('/api/auth/callback?code=abc&state=xyz')).toBe('/api/auth/callback?[redacted]');
    expect(withoutSecrets('/oidc/session/end?id_token_hint=eyJ')).toBe('/oidc/session/end?[redacted]');
    expect(withoutSecrets('/api/notifications?limit=20')).toBe('/api/notifications?limit=20');
    expect(withoutSecrets('/api/auth/me')).toBe('/api/auth/me');
  });
});
