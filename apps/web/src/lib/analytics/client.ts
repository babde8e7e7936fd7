import {
  analyticsApiVersion,
  analyticsEventSchema,
  analyticsLimits,
  analyticsSuccessBody,
  identifyEventType,
  identifyPropertiesSchema,
  isValidAnalyticsDeviceId,
  type AnalyticsEvent,
  type AnalyticsEventPropertiesOf,
  type AnalyticsEventType,
} from '@insilico/contracts/analytics';
import { md5Hex } from './md5';

/**
 * The analytics client (spec §7–§9, issue 21): the legacy HTTP API v2 protocol, written from the protocol, with no
 * React. Events wait in a queue persisted in localStorage and are uploaded every 30 s or at 30 events, 100 a batch;
 * on page hide the queue goes by beacon. Nothing is recorded or sent without consent (the analytics cookie).
 *
 * Flaws of the legacy SDK fixed here (docs/decisions/analytics.md):
 * - a failed upload is retried with exponential back-off and jitter (the legacy SDK waited for the next event);
 * - after a 413 the batch size recovers on the next success (it stayed halved for the page's life);
 * - a page-hide flush fits the 64 KiB beacon budget, splitting batches (recursively when sendBeacon refuses) and
 *   keeping what does not fit for the next visit (the legacy SDK put 100 events in one beacon and lost big ones);
 * - events dropped from a full queue get their error callback (they vanished silently);
 * - an upload that never answers is aborted after 30 s (the legacy sending flag could stay set for good);
 * - a 400 (the batch will never be accepted) drops the batch with its callbacks instead of resending it forever;
 * - every event carries an insert id, so a resend after a lost answer or a beacon is stored once;
 * - tabs of one browser no longer overwrite each other's stored queue (see `save`).
 */

/** Legacy callback shape: status (0: no request), response text, and for 'No request sent' the reason. */
export type AnalyticsCallback = (status: number, response: string, details?: { reason: string }) => void;

/** The 'No request sent' reasons of spec §8, word for word, and the client's own. */
export const noRequestSent = 'No request sent';
export const noRequestReasons = {
  apiKey: 'API key not set',
  optOut: 'optOut true',
  eventType: 'missing eventType',
  identify: 'invalid identify input',
  /** Ours: events are sent with the stored e-mail as the user id (spec §7), so none is recorded without one. */
  userId: 'user id not set',
  /** Ours: the properties are not the event's allow-listed ids. */
  properties: 'invalid event properties',
} as const;
export const eventDropped = 'Event dropped';
export const queueFullReason = 'queue over its saved maximum';

export interface AnalyticsResponse {
  status: number;
  body: string;
}

/** The network, injected: fetch and sendBeacon in the browser, fakes in tests. */
export interface AnalyticsTransport {
  /** POSTs a form body; resolves with status 0 for a network failure or an abort. */
  post(url: string, body: URLSearchParams, signal: AbortSignal): Promise<AnalyticsResponse>;
  /** navigator.sendBeacon: false when the browser refuses the body (its queue is full). */
  beacon(url: string, body: URLSearchParams): boolean;
}

export interface AnalyticsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The limits of spec §9 (tests shrink them). */
export type AnalyticsLimits = { [Key in keyof typeof analyticsLimits]: number };

export interface AnalyticsClientOptions {
  url: string;
  /** The analytics key (configuration); null: analytics is off on this server. */
  apiKey: string | null;
  /** Whether the analytics cookie exists (consent). Asked before recording and before every sending. */
  hasConsent: () => boolean;
  transport: AnalyticsTransport;
  storage: AnalyticsStorage;
  newId?: () => string;
  random?: () => number;
  language?: string;
  libraryVersion?: string;
  limits?: Partial<AnalyticsLimits>;
  requestTimeoutMs?: number;
  retry?: { baseMs: number; maxMs: number };
}

/** The user properties of an identify: `identify(new Identify().set('identityProvider', 'embedded'))`. */
export class Identify {
  readonly operations: Record<string, Record<string, unknown>> = {};
  set(property: string, value: unknown): this {
    (this.operations.$set ??= {})[property] = value;
    return this;
  }
  setOnce(property: string, value: unknown): this {
    (this.operations.$setOnce ??= {})[property] = value;
    return this;
  }
  unset(property: string): this {
    (this.operations.$unset ??= {})[property] = '-';
    return this;
  }
}

interface StoredState {
  deviceId: string;
  userId: string | null;
  sessionId: number;
  lastEventTime: number;
  eventId: number;
  sequenceNumber: number;
  queue: AnalyticsEvent[];
}

export const analyticsStorageKey = 'insilico.analytics';

interface Callbacks {
  callback?: AnalyticsCallback;
  errorCallback?: AnalyticsCallback;
}

export class AnalyticsClient {
  private readonly limits: AnalyticsLimits;
  private readonly newId: () => string;
  private readonly random: () => number;
  private readonly requestTimeoutMs: number;
  private readonly retry: { baseMs: number; maxMs: number };
  private state: StoredState;
  private readonly callbacks = new Map<string, Callbacks>();
  private batchSize: number;
  private optedOut = false;
  private inFlight: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Failed uploads in a row: the back-off's exponent. */
  private failures = 0;
  private retryAt = 0;

  constructor(private readonly options: AnalyticsClientOptions) {
    this.limits = { ...analyticsLimits, ...options.limits };
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.random = options.random ?? Math.random;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.retry = options.retry ?? { baseMs: 2_000, maxMs: 10 * 60_000 };
    this.batchSize = this.limits.batchSize;
    this.state = this.load();
    // A queue saved by an earlier visit goes out with the next upload.
    if (this.state.queue.length > 0) this.schedule(this.limits.uploadPeriodMs);
  }

  get deviceId(): string {
    return this.state.deviceId;
  }
  get sessionId(): number {
    return this.state.sessionId;
  }
  get userId(): string | null {
    return this.state.userId;
  }
  /** The events waiting, oldest first (a copy). */
  get queued(): AnalyticsEvent[] {
    return [...this.state.queue];
  }
  get currentBatchSize(): number {
    return this.batchSize;
  }

  /** optOut true stops recording and sending at once and forgets the waiting events. */
  setOptOut(optOut: boolean): void {
    this.optedOut = optOut;
    if (optOut) this.forgetQueue();
  }

  /** The stored e-mail (spec §7); a different user starts a new session. */
  setUserId(userId: string | null): void {
    if (userId === this.state.userId) return;
    this.state.userId = userId;
    this.state.sessionId = 0;
    this.save();
  }

  /** Spec §5: a device id must contain no dot; an invalid one is refused (false) and the old one kept. */
  setDeviceId(deviceId: string): boolean {
    if (!isValidAnalyticsDeviceId(deviceId)) return false;
    this.state.deviceId = deviceId;
    this.save();
    return true;
  }

  logEvent<T extends AnalyticsEventType>(
    eventType: T,
    eventProperties: AnalyticsEventPropertiesOf<T>,
    callback?: AnalyticsCallback,
    errorCallback?: AnalyticsCallback,
  ): void {
    this.record(eventType, eventProperties, {}, { callback, errorCallback });
  }

  identify(identify: unknown, callback?: AnalyticsCallback, errorCallback?: AnalyticsCallback): void {
    const valid =
      identify instanceof Identify ? identifyPropertiesSchema.safeParse(identify.operations).success : false;
    if (!valid || !(identify instanceof Identify)) {
      if (this.refusal({ callback, errorCallback })) return;
      return notSent({ errorCallback }, noRequestReasons.identify);
    }
    this.record(identifyEventType, {}, identify.operations, { callback, errorCallback });
  }

  /** Uploads the next batch now (unless one is on its way or a retry is waiting). */
  sendEvents(): void {
    if (this.inFlight || this.state.queue.length === 0) return;
    if (!this.options.apiKey || !this.sendingAllowed()) return;
    const now = Date.now();
    if (now < this.retryAt) return this.schedule(this.retryAt - now);
    this.clearTimer();
    const batch = this.state.queue.slice(0, this.batchSize);
    const controller = new AbortController();
    this.inFlight = controller;
    const timeout = setTimeout(() => controller.abort(), this.requestTimeoutMs);
    void this.options.transport
      .post(this.options.url, this.form(batch, now), controller.signal)
      .catch((): AnalyticsResponse => ({ status: 0, body: '' }))
      .then((response) => {
        clearTimeout(timeout);
        if (this.inFlight !== controller) return; // opted out meanwhile: nothing of that batch is kept
        this.inFlight = null;
        this.settle(batch, response);
      });
  }

  /**
   * Page hide: everything waiting goes by beacon within the browser's 64 KiB budget. A batch too big for the budget
   * or refused by sendBeacon is split in halves; a single event that still does not go stays for the next visit.
   */
  flushWithBeacon(): void {
    if (!this.options.apiKey || !this.sendingAllowed() || this.state.queue.length === 0) return;
    let budget = this.limits.beaconBudgetBytes;
    const now = Date.now();
    const sent = new Set<string>();
    const send = (events: AnalyticsEvent[]): void => {
      const body = this.form(events, now);
      // A form body is ASCII (percent-encoded), so its length is its size in bytes.
      const size = body.toString().length;
      if (size <= budget && this.options.transport.beacon(this.options.url, body)) {
        budget -= size;
        for (const event of events) sent.add(event.insert_id);
        return;
      }
      if (events.length === 1) return; // kept for the next visit
      const half = Math.ceil(events.length / 2);
      send(events.slice(0, half));
      send(events.slice(half));
    };
    const waiting = this.state.queue;
    for (let start = 0; start < waiting.length; start += this.limits.batchSize)
      send(waiting.slice(start, start + this.limits.batchSize));
    if (sent.size === 0) return;
    // A beacon has no answer: its events leave the queue and their callbacks are forgotten.
    for (const id of sent) this.callbacks.delete(id);
    this.state.queue = this.state.queue.filter((event) => !sent.has(event.insert_id));
    this.save(sent);
  }

  /** Stops timers and any upload on its way (tests, sign-out of the page). */
  dispose(): void {
    this.clearTimer();
    this.inFlight?.abort();
    this.inFlight = null;
  }

  private sendingAllowed(): boolean {
    if (this.optedOut || !this.options.hasConsent()) {
      // Consent withdrawn (maybe in another tab): what waits is forgotten, nothing more is sent.
      this.forgetQueue();
      return false;
    }
    return true;
  }

  /** The first 'No request sent' reason that applies to any recording, or null. */
  private refusal(callbacks: Callbacks): boolean {
    if (!this.options.apiKey) {
      notSent(callbacks, noRequestReasons.apiKey);
      return true;
    }
    if (this.optedOut || !this.options.hasConsent()) {
      notSent(callbacks, noRequestReasons.optOut);
      return true;
    }
    return false;
  }

  private record(
    eventType: string,
    eventProperties: Record<string, unknown>,
    userProperties: Record<string, unknown>,
    callbacks: Callbacks,
  ): void {
    if (this.refusal(callbacks)) return;
    if (typeof eventType !== 'string' || eventType === '') return notSent(callbacks, noRequestReasons.eventType);
    const userId = this.state.userId;
    if (!userId) return notSent(callbacks, noRequestReasons.userId);
    const now = Date.now();
    if (this.state.sessionId === 0 || now - this.state.lastEventTime > this.limits.sessionTimeoutMs)
      this.state.sessionId = now;
    const event = {
      event_type: eventType,
      event_id: this.state.eventId + 1,
      session_id: this.state.sessionId,
      timestamp: now,
      sequence_number: this.state.sequenceNumber + 1,
      insert_id: this.newId(),
      device_id: this.state.deviceId,
      user_id: userId,
      event_properties: eventProperties,
      user_properties: userProperties,
      platform: 'Web' as const,
      language: this.options.language ?? 'en',
      library: { name: 'insilico-web' as const, version: this.options.libraryVersion ?? '1' },
    };
    // The same allow-list the ingestion applies: an event the server would refuse is never queued.
    const checked = analyticsEventSchema.safeParse(event);
    if (!checked.success) return notSent(callbacks, noRequestReasons.properties);
    this.state.eventId = event.event_id;
    this.state.sequenceNumber = event.sequence_number;
    this.state.lastEventTime = now;
    this.state.queue.push(checked.data);
    this.callbacks.set(event.insert_id, callbacks);
    // Over the saved maximum the oldest events are dropped (spec §8), each with its error callback.
    const dropped = new Set<string>();
    while (this.state.queue.length > this.limits.savedMaxCount) {
      const oldest = this.state.queue.shift()!;
      dropped.add(oldest.insert_id);
      this.finish(oldest.insert_id, 'error', 0, eventDropped, { reason: queueFullReason });
    }
    this.save(dropped);
    if (this.state.queue.length >= this.limits.uploadThreshold) this.sendEvents();
    else this.schedule(this.limits.uploadPeriodMs);
  }

  private settle(batch: AnalyticsEvent[], response: AnalyticsResponse): void {
    const { status, body } = response;
    if (status === 200 && body === analyticsSuccessBody) {
      this.remove(batch, 'success', status, body);
      this.failures = 0;
      this.retryAt = 0;
      // The batch size recovers after a 413; the rest of a halved upload follows at once.
      const halved = this.batchSize < this.limits.batchSize;
      this.batchSize = this.limits.batchSize;
      if (halved || this.state.queue.length >= this.limits.uploadThreshold) this.sendEvents();
      else if (this.state.queue.length > 0) this.schedule(this.limits.uploadPeriodMs);
      return;
    }
    if (status === 413) {
      // Spec §8: the batch is halved and resent; with a batch of one, the event is dropped.
      if (batch.length === 1) this.remove(batch, 'error', status, body);
      else this.batchSize = Math.ceil(batch.length / 2);
      this.sendEvents();
      return;
    }
    if (status === 400) {
      // Refused as malformed: it would be refused again, so it is not resent.
      this.remove(batch, 'error', status, body);
      this.sendEvents();
      return;
    }
    // Other failures (network, 5xx, 429, maintenance, signed out): each event's error callback; kept and retried.
    for (const event of batch) this.callbacks.get(event.insert_id)?.errorCallback?.(status, body);
    this.failures += 1;
    const ceiling = Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (this.failures - 1));
    const delay = Math.round(ceiling / 2 + (this.random() * ceiling) / 2); // "equal jitter"
    this.retryAt = Date.now() + delay;
    this.schedule(delay);
  }

  private remove(batch: AnalyticsEvent[], outcome: 'success' | 'error', status: number, body: string): void {
    const ids = new Set(batch.map((event) => event.insert_id));
    this.state.queue = this.state.queue.filter((event) => !ids.has(event.insert_id));
    this.save(ids);
    for (const id of ids) this.finish(id, outcome, status, body);
  }

  private finish(
    id: string,
    outcome: 'success' | 'error',
    status: number,
    body: string,
    details?: { reason: string },
  ): void {
    const callbacks = this.callbacks.get(id);
    this.callbacks.delete(id);
    const callback = outcome === 'success' ? callbacks?.callback : callbacks?.errorCallback;
    callback?.(status, body, details);
  }

  private forgetQueue(): void {
    this.dispose();
    this.callbacks.clear();
    this.failures = 0;
    this.retryAt = 0;
    this.state.queue = [];
    // Consent withdrawn: what other tabs of this browser saved goes too.
    this.save('all');
  }

  private form(batch: AnalyticsEvent[], uploadTime: number): URLSearchParams {
    const client = this.options.apiKey ?? '';
    const e = JSON.stringify(batch);
    const time = String(uploadTime);
    return new URLSearchParams({
      client,
      e,
      v: analyticsApiVersion,
      upload_time: time,
      checksum: md5Hex(analyticsApiVersion + client + e + time),
    });
  }

  /** One timer: an earlier wish wins over a later one. */
  private schedule(delayMs: number): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sendEvents();
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * The queue in storage. Checked against the schema when it is to be sent (at start); when it is only written back
   * (every save), the shape is enough.
   */
  private storedQueue(check: 'schema' | 'shape'): AnalyticsEvent[] {
    let saved: unknown;
    try {
      saved = (JSON.parse(this.options.storage.getItem(analyticsStorageKey) ?? '{}') as { queue?: unknown })?.queue;
    } catch {
      return []; // an unreadable store starts afresh
    }
    if (!Array.isArray(saved)) return [];
    return saved.filter((event): event is AnalyticsEvent =>
      check === 'schema'
        ? analyticsEventSchema.safeParse(event).success
        : typeof (event as Partial<AnalyticsEvent> | null)?.insert_id === 'string' &&
          typeof (event as Partial<AnalyticsEvent>).timestamp === 'number',
    );
  }

  private load(): StoredState {
    const fresh: StoredState = {
      deviceId: this.newId(),
      userId: null,
      sessionId: 0,
      lastEventTime: 0,
      eventId: 0,
      sequenceNumber: 0,
      queue: [],
    };
    let saved: Partial<StoredState> = {};
    try {
      saved = (JSON.parse(this.options.storage.getItem(analyticsStorageKey) ?? '{}') as Partial<StoredState>) ?? {};
    } catch {
      // An unreadable store starts afresh.
    }
    const number = (value: unknown, fallback: number) =>
      typeof value === 'number' && Number.isFinite(value) ? value : fallback;
    const queue = this.storedQueue('schema');
    return {
      deviceId: isValidAnalyticsDeviceId(saved.deviceId) ? saved.deviceId : fresh.deviceId,
      userId: typeof saved.userId === 'string' ? saved.userId : null,
      sessionId: number(saved.sessionId, 0),
      lastEventTime: number(saved.lastEventTime, 0),
      eventId: number(saved.eventId, 0),
      sequenceNumber: number(saved.sequenceNumber, 0),
      // The saved maximum holds across visits too: the newest are kept.
      queue: queue.slice(-this.limits.savedMaxCount),
    };
  }

  /**
   * Writes the state. Other tabs of this browser share the stored queue: their events found there are kept (minus
   * those this tab just sent or dropped, `removed`), so one tab's save does not wipe another's waiting events (the
   * legacy SDK's last writer won). An event both tabs hold may be sent twice; the ingestion stores it once.
   */
  private save(removed: ReadonlySet<string> | 'all' = new Set()): void {
    let others: AnalyticsEvent[] = [];
    if (removed !== 'all') {
      const mine = new Set(this.state.queue.map((event) => event.insert_id));
      others = this.storedQueue('shape').filter((event) => !mine.has(event.insert_id) && !removed.has(event.insert_id));
    }
    const queue = [...others, ...this.state.queue]
      .sort((a, b) => a.timestamp - b.timestamp)
      .slice(-this.limits.savedMaxCount);
    try {
      this.options.storage.setItem(analyticsStorageKey, JSON.stringify({ ...this.state, queue }));
    } catch {
      // Storage full or forbidden: the queue lives on in memory for this page.
    }
  }
}

function notSent(callbacks: Callbacks, reason: string): void {
  callbacks.errorCallback?.(0, noRequestSent, { reason });
}
