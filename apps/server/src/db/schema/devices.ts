import type {
  BodyPart,
  DataRegion,
  DevelopmentStage,
  DeviceType,
  MemberRole,
  MembershipStatus,
} from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** A device workspace: the tenant of the product (every project, cohort, version and file belongs to one). */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The device picture (a stored file; no foreign key, as stored files refer to devices). */
    pictureFileId: uuid('picture_file_id'),
    deviceType: text('device_type').$type<DeviceType>().notNull(),
    deviceTypeOther: text('device_type_other'),
    bodyParts: jsonb('body_parts').$type<BodyPart[]>().notNull(),
    developmentStages: jsonb('development_stages').$type<DevelopmentStage[]>().notNull(),
    companyName: text('company_name').notNull(),
    country: text('country').notNull(),
    countryState: text('country_state'),
    streetAddress: text('street_address').notNull(),
    city: text('city').notNull(),
    zipCode: text('zip_code').notNull(),
    dataRegion: text('data_region').$type<DataRegion>().notNull(),
    /** The subscription: a plan name and the seats it includes (members, pending users and open invitations). */
    plan: text('plan').notNull().default('team'),
    seats: integer('seats').notNull().default(10),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [check('devices_data_region_ck', sql`${t.dataRegion} in ('eu', 'us')`)],
);

/** A user's membership of a device workspace (status pending_approval or ok; `invited` lives on invitations). */
export const memberships = pgTable(
  'memberships',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull().default('member'),
    status: text('status').$type<MembershipStatus>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
    check('memberships_role_ck', sql`${t.role} in ('member', 'admin', 'guest')`),
    check('memberships_status_ck', sql`${t.status} in ('invited', 'pending_approval', 'ok')`),
  ],
);

/** An invitation by e-mail: the link's token is single-use and only its SHA-256 is stored. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull().default('member'),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, precision: 3 }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('invitations_device_idx').on(t.deviceId),
    check('invitations_role_ck', sql`${t.role} in ('member', 'admin', 'guest')`),
  ],
);

/** The onboarding state of spec §3 per user, saved after every step. */
export const onboardingStates = pgTable('onboarding_states', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stepActive: integer('step_active').notNull().default(1),
  /** bodyPart, developmentPhase, deviceInfo, yourCompany, yourTeam, stepInfo. */
  state: jsonb('state').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** The workspace a user works in (workspace switcher); persists per user. */
export const selectedDevices = pgTable('selected_devices', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  deviceId: uuid('device_id')
    .notNull()
    .references(() => devices.id, { onDelete: 'cascade' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
