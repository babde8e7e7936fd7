import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import type { SettingsRepository } from '../repositories/settings.repository';

export interface IssuerSecrets {
  /** Private signing key of ID tokens (RS256), as a JWK. */
  signingKey: JsonWebKey & { kid: string; alg: string; use: string };
  /** Keys that sign the issuer's cookies; the first signs, all verify. */
  cookieKeys: string[];
  /** Secret of the app's own client at the embedded issuer. */
  clientSecret: string;
}

/**
 * The embedded issuer's keys, created on first start and kept in the database: restarting or
 * adding a server must not invalidate tokens, cookies or sessions.
 */
export async function loadIssuerSecrets(settings: SettingsRepository): Promise<IssuerSecrets> {
  return settings.getOrCreate<IssuerSecrets>('issuer.secrets', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      signingKey: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
      cookieKeys: [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')],
      clientSecret: randomBytes(32).toString('base64url'),
    };
  });
}
