import { createHash } from 'node:crypto';
import {
  analyticsEventSchema,
  analyticsFunnelSteps,
  analyticsIngestPath,
  analyticsOperatorsOnlyMessage,
  analyticsServerDeviceId,
  analyticsServerEventProperties,
  analyticsSuccessBody,
  type AnalyticsAccess,
  type AnalyticsConfig,
  type AnalyticsEvent,
  type AnalyticsEventList,
  type AnalyticsEventListQuery,
  type AnalyticsReport,
  type AnalyticsUploadForm,
} from '@insilico/contracts/analytics';
import type { AnalyticsForwardRepository } from '../repositories/analytics-forward.repository';
import type { AnalyticsOperator, AnalyticsRepository } from '../repositories/analytics.repository';
import { ServiceError } from './errors';

export interface AnalyticsSettings {
  /** null: analytics is off (ANALYTICS_KEY set empty). */
  key: string | null;
  retentionDays: number;
  /** Uploads one user may make per window (the ingestion is per signed-in client), counted in the database. */
  rateLimit?: { uploads: number; windowMs: number };
  /** Most events in one upload; more answers 413, so the client halves the batch. */
  maxEventsPerUpload?: number;
  now?: () => number;
  /** ANALYTICS_URL: every accepted upload goes on to this external ingestion (after it is stored here). */
  forward?: AnalyticsForwardRepository | null;
}

/** The uploader: the signed-in account the session cookie names. */
export interface AnalyticsUploader {
  id: string;
  email: string;
}

const day = 86_400_000;
const pruneEveryMs = 60 * 60_000;

/** The checksum of the wire format (HTTP API v2): md5(v + client + e + upload_time) in hex. */
export function analyticsChecksum(form: Pick<AnalyticsUploadForm, 'v' | 'client' | 'e' | 'upload_time'>): string {
  return createHash('md5').update(`${form.v}${form.client}${form.e}${form.upload_time}`, 'utf8').digest('hex');
}

/**
 * Our own analytics ingestion (issue 21): the legacy HTTP API v2 form, checked field by field (key, checksum,
 * every event against the allow-list), deduplicated by insert id, rate-limited per user, kept for the retention;
 * and the operator's report. The same-origin rule, the session and the consent cookie are checked by the route.
 */
export class AnalyticsService {
  private readonly rateLimit: { uploads: number; windowMs: number };
  private readonly maxEvents: number;
  private readonly now: () => number;
  private lastPrune = 0;

  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly settings: AnalyticsSettings,
  ) {
    this.rateLimit = settings.rateLimit ?? { uploads: 60, windowMs: 60_000 };
    this.maxEvents = settings.maxEventsPerUpload ?? 1000;
    this.now = settings.now ?? Date.now;
  }

  /** What the web client needs: the key to sign with and where to send (always our own origin, CSP). */
  config(): AnalyticsConfig {
    return { key: this.settings.key, url: analyticsIngestPath };
  }

  /** Checks and stores one upload; answers how many events were new. */
  async ingest(uploader: AnalyticsUploader, form: AnalyticsUploadForm): Promise<{ stored: number }> {
    if (!this.settings.key) throw new ServiceError(404, 'analytics_off', 'Analytics is turned off on this server.');
    if (form.client !== this.settings.key)
      throw new ServiceError(400, 'analytics_key', 'The analytics key (client) is not this server’s.');
    if (analyticsChecksum(form) !== form.checksum)
      throw new ServiceError(400, 'analytics_checksum', 'The checksum does not match the uploaded events.');
    const events = this.parseEvents(form.e, uploader);
    await this.countUpload(uploader.id);
    await this.prune();
    const stored = await this.repository.insert(
      events.map((event) => ({
        insertId: event.insert_id,
        userId: uploader.id,
        deviceId: event.device_id,
        sessionId: event.session_id,
        eventType: event.event_type,
        properties: event.event_type === '$identify' ? event.user_properties : event.event_properties,
        occurredAt: new Date(event.timestamp),
      })),
    );
    await this.forwardUpload(form);
    return { stored };
  }

  /**
   * The external ingestion's answer decides ours: its 413 is ours (the client halves the batch), any other failure
   * a 503 (the client keeps the events and resends; stored here once by insert id).
   */
  private async forwardUpload(form: AnalyticsUploadForm): Promise<void> {
    if (!this.settings.forward) return;
    const answer = await this.settings.forward.send(form);
    if (answer.status === 200 && answer.body === analyticsSuccessBody) return;
    if (answer.status === 413)
      throw new ServiceError(413, 'too_large', 'The analytics service refused the batch as too large.');
    throw new ServiceError(
      503,
      'analytics_upstream',
      `The analytics service did not take the events (status ${answer.status}); they will be sent again.`,
    );
  }

  /** Events per UTC day and type, active users per day, and the funnel, for the last `days` days (today included). */
  async report(days: number): Promise<AnalyticsReport> {
    if (!Number.isInteger(days) || days < 1 || days > 3660)
      throw new ServiceError(400, 'bad_request', 'Give the number of days as a whole number from 1 to 3660.');
    const to = new Date(Math.floor(this.now() / day) * day + day);
    const from = new Date(to.getTime() - days * day);
    const [counts, active, firsts, features] = await Promise.all([
      this.repository.countsByDayAndType(from, to),
      this.repository.activeUsersByDay(from, to, analyticsServerDeviceId),
      this.repository.firstOccurrences(from, to, analyticsFunnelSteps),
      this.repository.countsByType(from, to),
    ]);
    const byDay = new Map<string, AnalyticsReport['days'][number]>();
    for (const { day: date, users } of active) byDay.set(date, { day: date, activeUsers: users, events: {} });
    for (const { day: date, eventType, events } of counts) {
      const entry = byDay.get(date) ?? { day: date, activeUsers: 0, events: {} };
      entry.events[eventType] = events;
      byDay.set(date, entry);
    }
    return {
      from: from.toISOString().slice(0, 10),
      to: new Date(to.getTime() - day).toISOString().slice(0, 10),
      days: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)),
      funnel: funnel(firsts),
      features,
    };
  }

  /** Whether this user may read the analytics in the browser (the operator page). */
  async access(userId: string): Promise<AnalyticsAccess> {
    return { isOperator: await this.repository.isOperator(userId) };
  }

  /** The operator page's report: operators only (403 for anybody else). */
  async reportFor(userId: string, days: number): Promise<AnalyticsReport> {
    await this.requireOperator(userId);
    return this.report(days);
  }

  /** The received events, newest first, a page at a time: operators only. */
  async events(userId: string, query: AnalyticsEventListQuery): Promise<AnalyticsEventList> {
    await this.requireOperator(userId);
    const [time, id] = query.before ? query.before.split('_') : [];
    const rows = await this.repository.list({
      limit: query.limit + 1,
      before: time && id ? { occurredAt: new Date(Number(time)), id } : null,
      eventType: query.eventType ?? null,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        ...row,
        occurredAt: row.occurredAt.toISOString(),
        receivedAt: row.receivedAt.toISOString(),
      })),
      next: rows.length > query.limit && last ? `${last.occurredAt.getTime()}_${last.id}` : null,
    };
  }

  /** Who reads the analytics in the browser: operators only (the loopback route and `npm run operator`). */
  async operators(): Promise<AnalyticsOperator[]> {
    return this.repository.listOperators();
  }

  /** Grants or withdraws the operator flag for every account with this e-mail (signed in once at least). */
  async setOperator(email: string, isOperator: boolean): Promise<AnalyticsOperator[]> {
    const changed = await this.repository.setOperator(email.trim(), isOperator);
    if (changed.length === 0)
      throw new ServiceError(404, 'not_found', `Nobody with the e-mail ${email} has signed in yet.`);
    return changed;
  }

  /**
   * The server's own event when a simulation job completes (issue 21): recorded for the user who started the run
   * only if their browser had the consent cookie then (the job carries that user), and only once (its insert id is
   * derived from the simulation). Answers whether it was stored now.
   */
  async simulationCompleted(userId: string, simulationId: string): Promise<boolean> {
    if (!this.settings.key) return false;
    const run = await this.repository.completedSimulation(simulationId, userId);
    if (!run) return false;
    const properties = analyticsServerEventProperties['simulation completed'].parse({
      projectId: run.projectId,
      roomId: run.roomId,
      simulationId,
    });
    const stored = await this.repository.insert([
      {
        insertId: serverInsertId('simulation completed', simulationId),
        userId,
        deviceId: analyticsServerDeviceId,
        sessionId: 0,
        eventType: 'simulation completed',
        properties,
        occurredAt: run.finishedAt,
      },
    ]);
    return stored === 1;
  }

  private async requireOperator(userId: string): Promise<void> {
    if (!(await this.repository.isOperator(userId)))
      throw new ServiceError(403, 'forbidden', analyticsOperatorsOnlyMessage);
  }

  private parseEvents(text: string, uploader: AnalyticsUploader): AnalyticsEvent[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ServiceError(400, 'bad_request', 'The events (e) are not JSON.');
    }
    if (!Array.isArray(parsed) || parsed.length === 0)
      throw new ServiceError(400, 'bad_request', 'The events (e) must be a non-empty JSON array.');
    if (parsed.length > this.maxEvents)
      throw new ServiceError(413, 'too_large', `At most ${this.maxEvents} events may be sent at once.`);
    const email = uploader.email.toLowerCase();
    return parsed.map((raw, index) => {
      const checked = analyticsEventSchema.safeParse(raw);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const where = issue ? `${issue.path.join('.') || 'event'}: ${issue.message}` : 'invalid';
        throw new ServiceError(400, 'bad_request', `Event ${index + 1} is not valid (${where}).`, {
          issues: checked.error.issues,
        });
      }
      // Events carry the stored e-mail as user id (spec §7): only the signed-in user's own are taken.
      if (checked.data.user_id.toLowerCase() !== email)
        throw new ServiceError(400, 'bad_request', `Event ${index + 1} is not the signed-in user’s.`);
      if (checked.data.device_id === analyticsServerDeviceId)
        throw new ServiceError(
          400,
          'bad_request',
          `Event ${index + 1}: the device id ${analyticsServerDeviceId} is the server’s.`,
        );
      return checked.data;
    });
  }

  /** Counts the upload in the database (shared by every server on it); 429 over the limit of the window. */
  private async countUpload(userId: string): Promise<void> {
    const uploads = await this.repository.countUpload(userId, new Date(this.now()), this.rateLimit.windowMs);
    if (uploads > this.rateLimit.uploads)
      throw new ServiceError(429, 'rate_limited', 'Too many analytics uploads. Please try again in a minute.');
  }

  private async prune(): Promise<void> {
    const now = this.now();
    if (now - this.lastPrune < pruneEveryMs) return;
    this.lastPrune = now;
    await this.repository.deleteReceivedBefore(new Date(now - this.settings.retentionDays * day));
  }
}

/** A UUID (version 5 layout) derived from the event and its subject: the same server event is stored once. */
export function serverInsertId(eventType: string, subjectId: string): string {
  const hex = createHash('sha1').update(`${eventType}:${subjectId}`, 'utf8').digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Users who reached each step of the funnel in order (each step's first time after the step before). */
export function funnel(firsts: Array<{ userId: string; eventType: string; first: Date }>): AnalyticsReport['funnel'] {
  const perUser = new Map<string, Map<string, number>>();
  for (const { userId, eventType, first } of firsts) {
    const steps = perUser.get(userId) ?? new Map<string, number>();
    steps.set(eventType, first.getTime());
    perUser.set(userId, steps);
  }
  const reached = analyticsFunnelSteps.map(() => 0);
  for (const steps of perUser.values()) {
    let previous = -Infinity;
    for (const [index, step] of analyticsFunnelSteps.entries()) {
      const time = steps.get(step);
      if (time === undefined || time < previous) break;
      reached[index]! += 1;
      previous = time;
    }
  }
  return analyticsFunnelSteps.map((step, index) => ({ step, users: reached[index]! }));
}
