import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Local accounts of the embedded OpenID Connect issuer (not used with an external issuer). */
export const identityAccounts = pgTable('identity_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lower-cased; unique. */
  email: text('email').notNull().unique(),
  fullName: text('full_name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Storage of the embedded issuer (oidc-provider models: sessions, grants, codes, interactions …). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Sign-ups of the embedded issuer waiting for their e-mail confirmation: the account is created only
 * when the mailed link is used, so sign-up can answer the same whether or not the address has an account.
 * Only the SHA-256 of the link's token is stored.
 */
export const identitySignups = pgTable(
  'identity_signups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Lower-cased. */
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The sign-in (oidc-provider interaction) it was started from: confirmed in that browser, it completes it. */
    interactionUid: text('interaction_uid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('identity_signups_expires_idx').on(t.expiresAt)],
);

/**
 * Attempts counted by the sign-in throttle (wrong passwords, sign-ups, invalid invitation links), one row
 * each, in the shared database so that every server process sees the same counts. `key_hash` is the
 * SHA-256 of the account, the client address or both, never the plain value.
 */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: text('scope').notNull(),
    keyHash: text('key_hash').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_key_idx').on(t.scope, t.keyHash, t.at), index('auth_attempts_at_idx').on(t.at)],
);
