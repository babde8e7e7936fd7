import type { SupportRequestStatus } from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { devices } from './devices';
import { storedFiles } from './files';
import { users } from './users';

/** A request sent through the ask-support drawer; support staff answer it from the support inbox. */
export const supportRequests = pgTable(
  'support_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The workspace selected when the request was sent, for context; null before onboarding. */
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    screenshotFileId: uuid('screenshot_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    status: text('status').$type<SupportRequestStatus>().notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('support_requests_user_idx').on(t.userId, t.createdAt),
    index('support_requests_status_idx').on(t.status, t.updatedAt),
    check('support_requests_status_ck', sql`${t.status} in ('open', 'answered', 'closed')`),
  ],
);

/** A message in a support request's thread after the request itself: an answer or a follow-up. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => supportRequests.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** True when support staff wrote it (the author may later lose the flag; the thread keeps its meaning). */
    fromSupport: boolean('from_support').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('support_messages_request_idx').on(t.requestId, t.createdAt)],
);
