import { z } from 'zod';
import { text } from './text';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';

/** The longest reason for change the server stores. */
export const reasonMaxLength = 1000;
export const reasonRequiredMessage = 'Give a reason for this change: it is kept in the audit trail.';
export const reasonTooLongMessage = `A reason for change can be at most ${reasonMaxLength} characters.`;

/**
 * A reason for change (21 CFR Part 11 §11.10(e)): asked where regulated data changes meaning (a project's status,
 * the patients excluded from an analysis, a corrected measurement) and kept with the change in the audit trail.
 */
export const reasonSchema = text().trim().min(1, reasonRequiredMessage).max(reasonMaxLength, reasonTooLongMessage);

/** One finding of the audit trail's verifier: the row and what was done to it. */
export const chainBreakSchema = z.object({
  seq: z.number().int(),
  problem: z.enum(['edited', 'inserted', 'deleted_before', 'relinked']),
  message: text(),
});

/** `GET /api/devices/:deviceId/audit/verify` (admins) and `npm run audit -- verify`. */
export const auditVerdictSchema = z.object({
  ok: z.boolean(),
  rows: z.number().int(),
  headSeq: z.number().int(),
  /** Keep it: a later verification that ends before this row finds the tail cut. */
  headHash: text(),
  /** Committed events not linked yet (the chainer links them within moments; verifying links them first). */
  pending: z.number().int(),
  breaks: z.array(chainBreakSchema),
  checkedAt: text(),
});
export type AuditVerdict = z.infer<typeof auditVerdictSchema>;

/**
 * `GET /api/devices/:deviceId/audit/export?format=`: `zip` is the inspector's bundle (both exports with a manifest of
 * their SHA-256 hashes).
 */
export const auditExportQuerySchema = z.object({ format: z.enum(['csv', 'json', 'zip']).default('csv') });

/** One event as the activity feed shows it. */
export const activityItemSchema = z.object({
  /** The event's id in the trail. */
  id: z.number().int(),
  occurredAt: text(),
  action: text(),
  /** The kind the feed filters on: the object type (project, comment, analysis, measurement …). */
  kind: text(),
  actor: z.object({ id: text(), name: text() }).nullable(),
  objectType: text(),
  objectId: text(),
  project: z.object({ id: text(), name: text() }).nullable(),
  /** One sentence for people, e.g. "Ada Lovelace completed the project Valve sizing". */
  summary: text(),
  reason: text().nullable(),
  /** Where the object is shown in the web app, if anywhere. */
  link: text().nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

/** `GET /api/devices/:deviceId/activity`: newest first, paged by `before` (the last item's id). */
export const activityQuerySchema = z.object({
  projectId: z.uuid().optional(),
  actorId: z.uuid().optional(),
  kind: text().max(40).optional(),
  /** Inclusive dates (UTC days), `YYYY-MM-DD`. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityListSchema = z.object({
  items: z.array(activityItemSchema),
  nextBefore: z.number().int().nullable(),
  /** The filters' choices within the caller's scope: the kinds, projects and people its events name. */
  kinds: z.array(text()),
  projects: z.array(z.object({ id: text(), name: text() })),
  people: z.array(z.object({ id: text(), name: text() })),
});
export type ActivityList = z.infer<typeof activityListSchema>;

/** The notification stream's event for the feed: a new event the caller may see. */
export const activityStreamEvent = 'activity';

/** `GET /api/notifications/stream?device=`: the stream carries that workspace's feed too. */
export const activityStreamQuerySchema = z.object({ device: z.uuid().optional() });

/** The regulated record of a workspace (docs/decisions/endpoints-in-contracts.md): its feed, verifier and export. */
export const auditEndpoints = {
  activity: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId/activity',
    params: deviceParamsSchema,
    query: activityQuerySchema,
    response: { 200: activityListSchema },
  }),
  verify: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId/audit/verify',
    params: deviceParamsSchema,
    response: { 200: auditVerdictSchema },
  }),
  /** CSV, JSON or the inspector's zip (a file, not JSON). */
  export: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId/audit/export',
    params: deviceParamsSchema,
    query: auditExportQuerySchema,
  }),
};
