import { z } from 'zod';
import { endpoint } from './endpoint';

/**
 * Product analytics (spec §5, §7–§9; issue 21). The wire format is the legacy HTTP API v2: a form with `client`
 * (the key), `e` (a JSON array of events), `v`, `upload_time` and `checksum = md5(v + client + e + upload_time)`;
 * success is status 200 with the body `success`. Web client and ingestion share the rules below.
 */
export const analyticsApiVersion = '2';
export const analyticsSuccessBody = 'success';
/** The consent: events are recorded and sent only while this cookie exists (spec §7). */
export const analyticsConsentCookie = 'insilico_analytics';
/** Where the web app sends events: always our own origin (the CSP allows `connect-src 'self'` only). */
export const analyticsIngestPath = '/api/analytics/ingest';

/** Spec §9 and the legacy defaults the spec does not state (saved maximum). */
export const analyticsLimits = {
  sessionTimeoutMs: 30 * 60_000,
  uploadPeriodMs: 30_000,
  uploadThreshold: 30,
  batchSize: 100,
  /** The queue kept in localStorage; events over it are dropped (spec §8). */
  savedMaxCount: 1000,
  /** A browser accepts at most 64 KiB of beacon bodies in flight. */
  beaconBudgetBytes: 64 * 1024,
} as const;

/** Spec §5: analytics device ids contain no dot. Ours are also short and URL-safe. */
export const analyticsDeviceIdMessage = 'An analytics device id must contain no dot.';
export function isValidAnalyticsDeviceId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64 && !value.includes('.');
}

/** Ids only (uuids, numbers): never names or free text (no patient, cohort or file names). */
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id');
/** A route pattern: ids replaced by `:id`, lowercase words only (no free text from a path). */
const routePattern = z
  .string()
  .max(200)
  .regex(/^\/[a-z0-9\-/:]*$/, 'must be a route pattern');

/**
 * Every event the product records, each once with its allowed properties (an allow-list: an event names a product
 * action and carries ids only). The ingestion refuses any other type or property.
 */
export const analyticsEventProperties = {
  'page viewed': z.strictObject({ route: routePattern }),
  'signed in': z.strictObject({}),
  'workspace created': z.strictObject({ deviceId: id }),
  'cohort ordered': z.strictObject({ deviceId: id, cohortId: id }),
  'device version created': z.strictObject({ deviceId: id, versionId: id }),
  'project created': z.strictObject({ deviceId: id, projectId: id }),
  'room opened': z.strictObject({ projectId: id, roomId: id }),
  'simulation started': z.strictObject({ projectId: id, roomId: id, simulationId: id }),
  'room created': z.strictObject({ projectId: id, roomId: id }),
  'SSM created': z.strictObject({ projectId: id, ssmId: id }),
  'analysis exported': z.strictObject({ format: z.enum(['csv', 'svg', 'pdf']) }),
} as const;
export type AnalyticsEventType = keyof typeof analyticsEventProperties;
export type AnalyticsEventPropertiesOf<T extends AnalyticsEventType> = z.infer<(typeof analyticsEventProperties)[T]>;
export const analyticsEventTypes = Object.keys(analyticsEventProperties) as AnalyticsEventType[];
export const identifyEventType = '$identify';

/**
 * Events the server records itself, when something happens in a job rather than in a browser (issue 21): only for a
 * user whose browser had the consent cookie when the action began. A client may not send them (the ingestion
 * refuses their types). They carry the device id `server` (which no client may use) and count for no active user.
 */
export const analyticsServerEventProperties = {
  'simulation completed': z.strictObject({ projectId: id, roomId: id, simulationId: id }),
} as const;
export type AnalyticsServerEventType = keyof typeof analyticsServerEventProperties;
export const analyticsServerDeviceId = 'server';

/** User properties an identify may set (allow-list, no free text). */
export const analyticsUserProperties = z.strictObject({
  identityProvider: z.enum(['embedded', 'external']).optional(),
});
export const identifyOperations = ['$set', '$setOnce', '$unset'] as const;
export const identifyPropertiesSchema = z
  .strictObject({
    $set: analyticsUserProperties.optional(),
    $setOnce: analyticsUserProperties.optional(),
    $unset: z.strictObject({ identityProvider: z.literal('-').optional() }).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'an identify changes at least one property');

const emptyObject = z.strictObject({});

/** One event of `e` as our client writes it (the legacy event's fields that we use). */
export const analyticsEventSchema = z
  .strictObject({
    event_type: z.string().min(1).max(64),
    event_id: z.number().int().min(0),
    /** The session's start (ms since epoch). */
    session_id: z.number().int().min(0),
    timestamp: z.number().int().min(0),
    sequence_number: z.number().int().min(0),
    /** Deduplication: an event sent twice (a resend after a lost answer) is stored once. */
    insert_id: z.uuid(),
    device_id: z.string().refine(isValidAnalyticsDeviceId, analyticsDeviceIdMessage),
    /** The stored e-mail (spec §7). */
    user_id: z.string().min(1).max(320),
    event_properties: z.record(z.string(), z.unknown()),
    user_properties: z.record(z.string(), z.unknown()),
    platform: z.literal('Web'),
    language: z.string().max(35),
    library: z.strictObject({ name: z.literal('insilico-web'), version: z.string().max(20) }),
  })
  .superRefine((event, context) => {
    if (event.event_type === identifyEventType) {
      if (!emptyObject.safeParse(event.event_properties).success)
        context.addIssue({
          code: 'custom',
          path: ['event_properties'],
          message: 'an identify has no event properties',
        });
      const user = identifyPropertiesSchema.safeParse(event.user_properties);
      if (!user.success)
        context.addIssue({ code: 'custom', path: ['user_properties'], message: 'not an allowed identify' });
      return;
    }
    const schema = (analyticsEventProperties as Record<string, z.ZodType>)[event.event_type];
    if (!schema) {
      context.addIssue({ code: 'custom', path: ['event_type'], message: `unknown event type "${event.event_type}"` });
      return;
    }
    if (!schema.safeParse(event.event_properties).success)
      context.addIssue({
        code: 'custom',
        path: ['event_properties'],
        message: `not the allowed properties of "${event.event_type}"`,
      });
    if (!emptyObject.safeParse(event.user_properties).success)
      context.addIssue({ code: 'custom', path: ['user_properties'], message: 'only an identify sets user properties' });
  });
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;

/** The form of one upload (HTTP API v2). `e` is checked apart: its checksum is taken over the text as sent. */
export const analyticsUploadFormSchema = z.strictObject(
  {
    client: z
      .string({ error: 'Send the analytics key as client.' })
      .min(1, 'Send the analytics key as client.')
      .max(200),
    e: z.string({ error: 'Send the events as e, a JSON array.' }).min(2, 'Send the events as e, a JSON array.'),
    v: z.literal(analyticsApiVersion, { error: `v must be ${analyticsApiVersion}.` }),
    upload_time: z
      .string({ error: 'upload_time must be a time in milliseconds.' })
      .regex(/^\d{1,15}$/, 'upload_time must be a time in milliseconds.'),
    checksum: z
      .string({ error: 'checksum must be an md5 digest in hex.' })
      .regex(/^[0-9a-f]{32}$/, 'checksum must be an md5 digest in hex.'),
  },
  { error: 'An analytics upload has the fields client, e, v, upload_time and checksum only.' },
);
export type AnalyticsUploadForm = z.infer<typeof analyticsUploadFormSchema>;

/** `GET /api/analytics/config`: the key the web client signs with; null: analytics is off on this server. */
export const analyticsConfigSchema = z.object({ key: z.string().nullable(), url: z.string() });
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

/** The operator's report (`npm run operator -- analytics`). */
export const analyticsReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(
    z.object({
      day: z.string(),
      activeUsers: z.number().int(),
      events: z.record(z.string(), z.number().int()),
    }),
  ),
  /** Distinct users who reached each step in order, over the whole period. */
  funnel: z.array(z.object({ step: z.string(), users: z.number().int() })),
  /** Per feature (event type) over the whole period: events and distinct users, most events first. */
  features: z.array(z.object({ eventType: z.string(), events: z.number().int(), users: z.number().int() })),
});
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;
/** From the workspace to the first completed simulation (the last step is recorded by the server). */
export const analyticsFunnelSteps: Array<AnalyticsEventType | AnalyticsServerEventType> = [
  'workspace created',
  'project created',
  'room opened',
  'simulation started',
  'simulation completed',
];
/** A whole number from a query string within [min, max], with one message for every way it can be wrong. */
function wholeNumberIn(min: number, max: number, message: string) {
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** `GET /api/analytics/report?days=`: the operator page's period (30 days unless given). */
export const analyticsReportQuerySchema = z.object({
  days: wholeNumberIn(1, 3660, 'Give the number of days as a whole number from 1 to 3660.').default(30),
});

/** The operator page's list of received events, newest first, a page at a time (keyset: `before` is a cursor). */
export const analyticsEventListQuerySchema = z.object({
  limit: wholeNumberIn(1, 100, 'limit must be a whole number from 1 to 100.').default(25),
  before: z
    .string()
    .regex(/^\d{1,15}_[0-9a-f-]{36}$/, 'before must be the cursor of an earlier page.')
    .optional(),
  eventType: z
    .string()
    .regex(/^[$\w -]{1,64}$/, 'eventType must be the name of an event type.')
    .optional(),
});
export type AnalyticsEventListQuery = z.infer<typeof analyticsEventListQuerySchema>;
export const analyticsEventListSchema = z.object({
  items: z.array(
    z.object({
      id: z.uuid(),
      eventType: z.string(),
      userEmail: z.string(),
      deviceId: z.string(),
      sessionId: z.number().int(),
      properties: z.record(z.string(), z.unknown()),
      occurredAt: z.string(),
      receivedAt: z.string(),
    }),
  ),
  /** The cursor of the next (older) page; null on the last page. */
  next: z.string().nullable(),
});
export type AnalyticsEventList = z.infer<typeof analyticsEventListSchema>;
/** Who may read the ingestion in the browser (`users.is_operator`, set by `npm run operator -- operators`). */
export const analyticsAccessSchema = z.object({ isOperator: z.boolean() });
export type AnalyticsAccess = z.infer<typeof analyticsAccessSchema>;
export const analyticsOperatorsOnlyMessage = 'The product analytics are for operators only.';

/**
 * The analytics API the web app reads (docs/decisions/endpoints-in-contracts.md): the client's configuration and the
 * operator page. Receiving events (`analyticsIngestPath`) speaks the HTTP API v2 form, not JSON.
 */
export const analyticsEndpoints = {
  config: endpoint({ method: 'GET', path: '/api/analytics/config', response: { 200: analyticsConfigSchema } }),
  access: endpoint({ method: 'GET', path: '/api/analytics/access', response: { 200: analyticsAccessSchema } }),
  report: endpoint({
    method: 'GET',
    path: '/api/analytics/report',
    query: analyticsReportQuerySchema,
    response: { 200: analyticsReportSchema },
  }),
  events: endpoint({
    method: 'GET',
    path: '/api/analytics/events',
    query: analyticsEventListQuerySchema,
    response: { 200: analyticsEventListSchema },
  }),
};
