import type { DevelopmentStage, ProjectStatus } from '@insilico/contracts';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cohorts } from './cohorts';
import { devices } from './devices';
import { users } from './users';

/**
 * A question of interest of a workspace (issue 5 item 2), reusable across its projects. The optional ASME V&V 40
 * fields give the model risk level (model influence × decision consequence); the level is derived, not stored.
 */
export const questionsOfInterest = pgTable(
  'questions_of_interest',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    /** What the simulation result will be used for (V&V 40 context of use). */
    contextOfUse: text('context_of_use'),
    modelInfluence: text('model_influence'),
    decisionConsequence: text('decision_consequence'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('questions_of_interest_device_idx').on(t.deviceId, t.createdAt),
    check('questions_of_interest_influence_ck', sql`${t.modelInfluence} in ('low', 'medium', 'high')`),
    check('questions_of_interest_consequence_ck', sql`${t.decisionConsequence} in ('low', 'medium', 'high')`),
  ],
);

/** A development project of a workspace (spec §3 "Project"). */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The development stage the overview groups by (one of the workspace's stages). */
    developmentStage: text('development_stage').$type<DevelopmentStage>().notNull(),
    questionId: uuid('question_id').references(() => questionsOfInterest.id, { onDelete: 'set null' }),
    status: text('status').$type<ProjectStatus>().notNull().default('active'),
    /** The project this one was started from ("from a previous project"), for traceability. */
    basedOnProjectId: uuid('based_on_project_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, precision: 3 }),
    statusChangedBy: uuid('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('projects_device_name_uq').on(t.deviceId, sql`lower(${t.name})`),
    index('projects_device_created_idx').on(t.deviceId, t.createdAt),
    check('projects_status_ck', sql`${t.status} in ('active', 'completed', 'abandoned')`),
    check('projects_name_length_ck', sql`char_length(${t.name}) between 1 and 50`),
    check(
      'projects_stage_ck',
      sql`${t.developmentStage} in ('concept_and_design_feasibility', 'animal_testing', 'clinical_trial')`,
    ),
  ],
);

/** The team of a project: only users of the workspace (checked by the service). */
export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_members_user_idx').on(t.userId)],
);

/** The cohorts of a project (ordered inside the wizard or chosen from the workspace's cohorts). */
export const projectCohorts = pgTable(
  'project_cohorts',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    cohortId: uuid('cohort_id')
      .notNull()
      .references(() => cohorts.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedAt: timestamp('added_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.cohortId] }), index('project_cohorts_cohort_idx').on(t.cohortId)],
);

/** The project creation state of spec §3, one draft per user and workspace, so a reload continues. */
export const projectDrafts = pgTable(
  'project_drafts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    step: integer('step').notNull().default(1),
    state: jsonb('state').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] })],
);

/**
 * A comment on a project (Comments tab): threaded by `parentId`, with @mentions of team members. Deleting keeps
 * the row (body cleared, `deletedAt` set) so replies keep their place in the thread.
 */
export const projectComments = pgTable(
  'project_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    /** User ids mentioned in the body (resolved and checked against the team when saved). */
    mentions: jsonb('mentions').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true, precision: 3 }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    deletedBy: uuid('deleted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('project_comments_project_idx').on(t.projectId, t.createdAt)],
);
