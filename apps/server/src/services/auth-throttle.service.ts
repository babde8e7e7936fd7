import { createHash } from 'node:crypto';
import type { AuthAttemptRepository } from '../repositories/auth-attempt.repository';
import { ServiceError } from './errors';

/** At most `limit` counted attempts per key within a sliding window of `windowSeconds`. */
export interface ThrottleRule {
  scope: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The limits (docs/decisions/secure-by-default-auth.md). A refusal lasts only until the oldest counted
 * attempt leaves the window, so nobody can shut a victim out for longer than one window (at most 15 min)
 * per burst, and the tight limit is per account AND client address: a stranger's guesses from elsewhere
 * reach only the looser account-wide limit.
 */
export const throttleRules = {
  /** Wrong passwords (sign-in and password change together) for one account from one client address. */
  passwordAccountAddress: { scope: 'password:account+address', limit: 5, windowSeconds: 60 },
  /** Wrong passwords for one account from anywhere (a guesser spread over many addresses). */
  passwordAccount: { scope: 'password:account', limit: 20, windowSeconds: 5 * 60 },
  /** Wrong passwords from one client address over all accounts (credential stuffing). */
  passwordAddress: { scope: 'password:address', limit: 50, windowSeconds: 15 * 60 },
  /** Sign-ups for one e-mail address: each sends a mail there. */
  signUpAccount: { scope: 'signup:account', limit: 3, windowSeconds: 15 * 60 },
  /** Sign-ups from one client address (an office behind one address signs its team up). */
  signUpAddress: { scope: 'signup:address', limit: 50, windowSeconds: 10 * 60 },
  /** Invitation links that are not valid, per signed-in user and per client address. */
  invitationUser: { scope: 'invitation:user', limit: 5, windowSeconds: 15 * 60 },
  invitationAddress: { scope: 'invitation:address', limit: 20, windowSeconds: 15 * 60 },
} as const satisfies Record<string, ThrottleRule>;

const longestWindowSeconds = Math.max(...Object.values(throttleRules).map((rule) => rule.windowSeconds));

/** One rule applied to one key (an e-mail, a client address, a user id, or a combination). */
export interface ThrottleKey {
  rule: ThrottleRule;
  key: string;
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** The refusal as the API answers it (429). */
export function tooManyAttempts(retryAfterSeconds: number): ServiceError {
  return new ServiceError(429, 'too_many_attempts', tooManyAttemptsMessage(retryAfterSeconds), {
    retryAfterSeconds,
  });
}

/**
 * The throttle of sign-in, sign-up, password change and invitation redemption. Counts live in the shared
 * database (timed by its clock), so several server processes throttle together.
 */
export class AuthThrottle {
  constructor(private readonly attempts: AuthAttemptRepository) {}

  /** Seconds to wait when any key has used up its rule, else null. Refused attempts are not counted. */
  async refusal(keys: readonly ThrottleKey[]): Promise<number | null> {
    let wait = 0;
    for (const { rule, key } of keys) {
      const { retryAfterSeconds } = await this.attempts.countWithin(
        rule.scope,
        hashKey(key),
        rule.windowSeconds,
        rule.limit,
      );
      wait = Math.max(wait, retryAfterSeconds);
    }
    return wait > 0 ? wait : null;
  }

  /** Counts one attempt against every key. */
  async count(keys: readonly ThrottleKey[]): Promise<void> {
    for (const { rule, key } of keys) await this.attempts.record(rule.scope, hashKey(key));
    await this.attempts.prune(longestWindowSeconds);
  }

  /** Forgets the attempts of these keys (after a success). */
  async clear(keys: readonly ThrottleKey[]): Promise<void> {
    for (const { rule, key } of keys) await this.attempts.clear(rule.scope, hashKey(key));
  }

  /** The keys of a password attempt: account and address, account, address. */
  static passwordKeys(email: string, clientAddress: string): ThrottleKey[] {
    return [
      { rule: throttleRules.passwordAccountAddress, key: `${email}\n${clientAddress}` },
      { rule: throttleRules.passwordAccount, key: email },
      { rule: throttleRules.passwordAddress, key: clientAddress },
    ];
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
