import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** What a sign-in in flight needs back at the callback (authorization code + PKCE). */
export interface LoginTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/**
 * Server-side sessions. Only a SHA-256 hash of the cookie's token is stored, so a leaked table
 * does not yield usable cookies. `kind = 'login'` rows exist between /login and /callback.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind', { enum: ['login', 'user'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    login: jsonb('login').$type<LoginTransaction>(),
    idToken: text('id_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Signings waiting for a fresh sign-in at an external identity provider (21 CFR Part 11 §11.200): keyed by the
 * SHA-256 of the authorization request's `state`, bound to the session that began it (its e-signature key), the
 * record and the meaning; used once (taken by the callback) and only until `expires_at`.
 */
export const signingReauthentications = pgTable(
  'signing_reauthentications',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionKey: text('session_key').notNull(),
    deviceId: uuid('device_id').notNull(),
    recordType: text('record_type', { enum: ['entry', 'event'] }).notNull(),
    recordId: text('record_id').notNull(),
    meaning: text('meaning', { enum: ['review', 'approval', 'responsibility', 'authorship'] }).notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    returnTo: text('return_to').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('signing_reauthentications_expires_idx').on(t.expiresAt)],
);
