import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** People who signed in, keyed by their issuer and subject (the embedded issuer or an external one). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    jobTitle: text('job_title'),
    /** A picture URL from an external issuer's `picture` claim; an uploaded picture wins over it. */
    pictureUrl: text('picture_url'),
    /** The uploaded profile picture (a stored file; no foreign key, to keep the users table first in order). */
    pictureFileId: uuid('picture_file_id'),
    /** Support staff answer support requests; set by an operator command, never through the API. */
    isSupport: boolean('is_support').notNull().default(false),
    /** Operators read the product analytics in the browser; set by an operator command, never through the API. */
    isOperator: boolean('is_operator').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_issuer_subject_uq').on(t.issuer, t.subject)],
);
