import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsEventSchema, type AnalyticsEvent } from '@insilico/contracts/analytics';
import {
  AnalyticsClient,
  analyticsStorageKey,
  eventDropped,
  Identify,
  noRequestSent,
  queueFullReason,
  type AnalyticsCallback,
  type AnalyticsClientOptions,
  type AnalyticsResponse,
} from './client';
import { md5Hex } from './md5';

/** A transport that records every upload and answers from a script (default: 200 success). */
class FakeTransport {
  posts: URLSearchParams[] = [];
  beacons: URLSearchParams[] = [];
  answers: Array<AnalyticsResponse | ((body: URLSearchParams) => AnalyticsResponse)> = [];
  beaconAccepts: (body: URLSearchParams) => boolean = () => true;
  hang = false;
  post = vi.fn((_url: string, body: URLSearchParams, signal: AbortSignal): Promise<AnalyticsResponse> => {
    this.posts.push(body);
    if (this.hang)
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ status: 0, body: '' })));
    const next = this.answers.shift() ?? { status: 200, body: 'success' };
    return Promise.resolve(typeof next === 'function' ? next(body) : next);
  });
  beacon = (_url: string, body: URLSearchParams): boolean => {
    if (!this.beaconAccepts(body)) return false;
    this.beacons.push(body);
    return true;
  };
}

function events(body: URLSearchParams): AnalyticsEvent[] {
  return JSON.parse(body.get('e')!) as AnalyticsEvent[];
}

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
}

let transport: FakeTransport;
let storage: MemoryStorage;
let consent: boolean;
let ids: number;
const clients: AnalyticsClient[] = [];

function client(options: Partial<AnalyticsClientOptions> = {}): AnalyticsClient {
  const made = new AnalyticsClient({
    url: '/api/analytics/ingest',
    apiKey: 'key-1',
    hasConsent: () => consent,
    transport,
    storage,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    random: () => 0.5,
    ...options,
  });
  clients.push(made);
  made.setUserId('ada@example.com');
  return made;
}

function log(
  analytics: AnalyticsClient,
  n: number,
  callbacks: { ok?: AnalyticsCallback; error?: AnalyticsCallback } = {},
) {
  for (let i = 0; i < n; i++)
    analytics.logEvent('project created', { deviceId: 'd1', projectId: `p${i}` }, callbacks.ok, callbacks.error);
}

/** Lets the fake transport's promise settle. */
async function settle() {
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
  transport = new FakeTransport();
  storage = new MemoryStorage();
  consent = true;
  ids = 0;
});
afterEach(() => {
  for (const made of clients.splice(0)) made.dispose();
  vi.useRealTimers();
});

describe('wire format (HTTP API v2)', () => {
  it('posts client, e, v, upload_time and checksum = md5(v + client + e + upload_time)', async () => {
    const analytics = client();
    log(analytics, 1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(transport.posts).toHaveLength(1);
    const form = transport.posts[0]!;
    expect([...form.keys()].sort()).toEqual(['checksum', 'client', 'e', 'upload_time', 'v']);
    expect(form.get('client')).toBe('key-1');
    expect(form.get('v')).toBe('2');
    expect(form.get('upload_time')).toBe(String(Date.parse('2026-03-01T10:00:30Z')));
    expect(form.get('checksum')).toBe(md5Hex(`2key-1${form.get('e')}${form.get('upload_time')}`));
    const [event] = events(form);
    expect(analyticsEventSchema.parse(event)).toMatchObject({
      event_type: 'project created',
      user_id: 'ada@example.com',
      device_id: analytics.deviceId,
      event_properties: { deviceId: 'd1', projectId: 'p0' },
    });
  });

  it('success is status 200 with body success: the callback gets it and the queue empties', async () => {
    const analytics = client();
    const ok = vi.fn<AnalyticsCallback>();
    log(analytics, 1, { ok });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ok).toHaveBeenCalledWith(200, 'success', undefined);
    expect(analytics.queued).toEqual([]);
  });

  it('a 200 with another body is a failure: the event stays', async () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    transport.answers.push({ status: 200, body: 'ok' });
    log(analytics, 1, { error });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(error).toHaveBeenCalledWith(200, 'ok');
    expect(analytics.queued).toHaveLength(1);
  });
});

describe('upload timing (spec §9)', () => {
  it('uploads 30 s after an event, not before', async () => {
    const analytics = client();
    log(analytics, 1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(transport.posts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(transport.posts).toHaveLength(1);
  });

  it('uploads at once when 30 events wait', async () => {
    const analytics = client();
    log(analytics, 29);
    await settle();
    expect(transport.posts).toHaveLength(0);
    log(analytics, 1);
    await settle();
    expect(transport.posts).toHaveLength(1);
    expect(events(transport.posts[0]!)).toHaveLength(30);
  });

  it('sends at most 100 events a batch, the rest in the next batch', async () => {
    const analytics = client({ limits: { uploadThreshold: 1000 } });
    log(analytics, 250);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(transport.posts.map((form) => events(form).length)).toEqual([100, 100, 50]);
    expect(analytics.queued).toEqual([]);
  });
});

describe('sessions (spec §9: 30 minutes)', () => {
  it('keeps the session within 30 minutes of the last event and starts a new one after', async () => {
    const analytics = client();
    log(analytics, 1);
    const first = analytics.sessionId;
    expect(first).toBe(Date.now());
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    log(analytics, 1);
    expect(analytics.sessionId).toBe(first);
    await vi.advanceTimersByTimeAsync(30 * 60_000 + 1);
    log(analytics, 1);
    expect(analytics.sessionId).toBe(Date.now());
    expect(analytics.sessionId).not.toBe(first);
  });

  it('a different user starts a new session', async () => {
    const analytics = client();
    log(analytics, 1);
    const first = analytics.sessionId;
    await vi.advanceTimersByTimeAsync(1000);
    analytics.setUserId('grace@example.com');
    log(analytics, 1);
    expect(analytics.sessionId).toBe(first + 1000);
  });
});

describe('status 413 (spec §8)', () => {
  it('halves the batch and resends, down to a batch of one, which is dropped', async () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    const ok = vi.fn<AnalyticsCallback>();
    // The server takes batches of at most 2 events, and refuses the event p0 whatever its batch.
    transport.answers = Array.from({ length: 20 }, () => (body: URLSearchParams) => {
      const batch = events(body);
      const tooBig = batch.length > 2 || batch.some((event) => event.event_properties.projectId === 'p0');
      return tooBig ? { status: 413, body: 'Payload Too Large' } : { status: 200, body: 'success' };
    });
    log(analytics, 5, { ok, error });
    await vi.advanceTimersByTimeAsync(30_000);
    // 5 → 3 → 2 → 1 (p0 dropped), then the rest in the recovered batch size… which is refused and halved again.
    const sizes = transport.posts.map((form) => events(form).length);
    expect(sizes.slice(0, 4)).toEqual([5, 3, 2, 1]);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(413, 'Payload Too Large', undefined);
    expect(ok).toHaveBeenCalledTimes(4);
    expect(analytics.queued).toEqual([]);
  });

  it('the batch size recovers after a success', async () => {
    const analytics = client({ limits: { uploadThreshold: 1000 } });
    transport.answers.push({ status: 413, body: '' });
    log(analytics, 40);
    await vi.advanceTimersByTimeAsync(30_000);
    // The rest of the halved upload follows at once, then the size is back to 100.
    expect(transport.posts.map((form) => events(form).length)).toEqual([40, 20, 20]);
    expect(analytics.currentBatchSize).toBe(100);
  });
});

describe('other failures (spec §8)', () => {
  it("call each event's error callback, keep the events and retry with exponential back-off", async () => {
    const analytics = client({ retry: { baseMs: 1000, maxMs: 8000 } });
    const error = vi.fn<AnalyticsCallback>();
    const ok = vi.fn<AnalyticsCallback>();
    transport.answers.push(
      { status: 503, body: 'down' },
      { status: 0, body: '' },
      { status: 500, body: 'oops' },
      { status: 500, body: 'oops' },
      { status: 500, body: 'oops' },
    );
    log(analytics, 2, { ok, error });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith(503, 'down');
    expect(analytics.queued).toHaveLength(2);
    // Jitter at 0.5: ¾ of 1 s, 2 s, 4 s, 8 s, then 8 s (the ceiling).
    const times: number[] = [];
    const start = Date.now();
    transport.post.mockImplementation((_url, body) => {
      times.push(Date.now() - start);
      transport.posts.push(body);
      const next = transport.answers.shift() ?? { status: 200, body: 'success' };
      return Promise.resolve(typeof next === 'function' ? next(body) : next);
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(times).toEqual([
      750,
      750 + 1500,
      750 + 1500 + 3000,
      750 + 1500 + 3000 + 6000,
      750 + 1500 + 3000 + 6000 + 6000,
    ]);
    expect(ok).toHaveBeenCalledTimes(2);
    expect(analytics.queued).toEqual([]);
  });

  it('new events do not jump the back-off', async () => {
    const analytics = client({ retry: { baseMs: 10_000, maxMs: 10_000 } });
    transport.answers.push({ status: 500, body: '' });
    log(analytics, 1);
    await vi.advanceTimersByTimeAsync(30_000);
    log(analytics, 40);
    await settle();
    expect(transport.posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(7500);
    expect(transport.posts).toHaveLength(2);
  });

  it('a 400 drops the batch with its error callbacks (it would be refused again)', async () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    transport.answers.push({ status: 400, body: 'bad' });
    log(analytics, 3, { error });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(error).toHaveBeenCalledTimes(3);
    expect(analytics.queued).toEqual([]);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(transport.posts).toHaveLength(1);
  });

  it('an upload that never answers is aborted after 30 s and retried', async () => {
    const analytics = client({ retry: { baseMs: 1000, maxMs: 1000 } });
    const error = vi.fn<AnalyticsCallback>();
    transport.hang = true;
    log(analytics, 1, { error });
    await vi.advanceTimersByTimeAsync(30_000 + 30_000);
    expect(error).toHaveBeenCalledWith(0, '');
    transport.hang = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(transport.posts).toHaveLength(2);
    expect(analytics.queued).toEqual([]);
  });
});

describe('the persisted queue', () => {
  it('survives a reload and is sent by the next page', async () => {
    const first = client();
    log(first, 3);
    first.dispose();
    const second = client();
    expect(second.queued).toHaveLength(3);
    expect(second.deviceId).toBe(first.deviceId);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(events(transport.posts[0]!)).toHaveLength(3);
  });

  it('over its saved maximum drops the oldest events, each with its error callback', () => {
    const analytics = client({ limits: { savedMaxCount: 5, uploadThreshold: 1000 } });
    const error = vi.fn<AnalyticsCallback>();
    log(analytics, 7, { error });
    expect(analytics.queued.map((event) => event.event_properties.projectId)).toEqual(['p2', 'p3', 'p4', 'p5', 'p6']);
    expect(error).toHaveBeenCalledTimes(2);
    expect(error).toHaveBeenCalledWith(0, eventDropped, { reason: queueFullReason });
    const saved = JSON.parse(storage.getItem(analyticsStorageKey)!) as { queue: unknown[] };
    expect(saved.queue).toHaveLength(5);
  });

  it("two tabs share the store without wiping each other's waiting events", async () => {
    const stored = () =>
      (JSON.parse(storage.getItem(analyticsStorageKey)!) as { queue: AnalyticsEvent[] }).queue.map(
        (event) => event.event_properties.projectId,
      );
    const first = client({ limits: { uploadThreshold: 1000 } });
    const second = client({ limits: { uploadThreshold: 1000 } });
    log(first, 2); // p0, p1
    await vi.advanceTimersByTimeAsync(1);
    second.logEvent('project created', { deviceId: 'd1', projectId: 'q0' });
    expect(stored()).toEqual(['p0', 'p1', 'q0']);
    second.dispose();
    // The first tab uploads its own two: the second tab's event stays stored for it (or the next page).
    await vi.advanceTimersByTimeAsync(30_000);
    expect(transport.posts.map((form) => events(form).map((event) => event.event_properties.projectId))).toEqual([
      ['p0', 'p1'],
    ]);
    expect(stored()).toEqual(['q0']);
    expect(client().queued.map((event) => event.event_properties.projectId)).toEqual(['q0']);
    // Consent withdrawn in one tab: the whole stored queue goes.
    first.setOptOut(true);
    expect(stored()).toEqual([]);
  });

  it('a saved queue over the maximum keeps its newest events; an unreadable store starts afresh', () => {
    storage.setItem(analyticsStorageKey, 'not json');
    const fresh = client({ limits: { savedMaxCount: 2, uploadThreshold: 1000 } });
    expect(fresh.queued).toEqual([]);
    log(fresh, 2);
    fresh.dispose();
    const saved = JSON.parse(storage.getItem(analyticsStorageKey)!) as { queue: AnalyticsEvent[] };
    saved.queue.push({ ...saved.queue[0]!, insert_id: '00000000-0000-4000-8000-999999999999' });
    storage.setItem(analyticsStorageKey, JSON.stringify(saved));
    const reloaded = client({ limits: { savedMaxCount: 2, uploadThreshold: 1000 } });
    expect(reloaded.queued.map((event) => event.insert_id)).toEqual([
      saved.queue[1]!.insert_id,
      '00000000-0000-4000-8000-999999999999',
    ]);
  });
});

describe("'No request sent' (spec §8)", () => {
  function reasonOf(error: ReturnType<typeof vi.fn<AnalyticsCallback>>) {
    expect(error).toHaveBeenCalledTimes(1);
    const [status, response, details] = error.mock.calls[0]!;
    expect(status).toBe(0);
    expect(response).toBe(noRequestSent);
    return details?.reason;
  }

  it('API key not set', () => {
    const analytics = client({ apiKey: null });
    const error = vi.fn<AnalyticsCallback>();
    log(analytics, 1, { error });
    expect(reasonOf(error)).toBe('API key not set');
    expect(analytics.queued).toEqual([]);
  });

  it('optOut true — set by the switch, or the analytics cookie missing', async () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    analytics.setOptOut(true);
    log(analytics, 1, { error });
    expect(reasonOf(error)).toBe('optOut true');
    analytics.setOptOut(false);
    consent = false;
    const noCookie = vi.fn<AnalyticsCallback>();
    log(analytics, 1, { error: noCookie });
    expect(reasonOf(noCookie)).toBe('optOut true');
    await vi.advanceTimersByTimeAsync(600_000);
    expect(transport.posts).toEqual([]);
    expect(analytics.queued).toEqual([]);
  });

  it('missing eventType', () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    analytics.logEvent('' as 'signed in', {}, undefined, error);
    expect(reasonOf(error)).toBe('missing eventType');
  });

  it('invalid identify input', () => {
    const analytics = client();
    for (const input of [
      undefined,
      { $set: { identityProvider: 'embedded' } },
      new Identify(),
      new Identify().set('fullName', 'Ada'),
    ]) {
      const error = vi.fn<AnalyticsCallback>();
      analytics.identify(input, undefined, error);
      expect(reasonOf(error)).toBe('invalid identify input');
    }
    expect(analytics.queued).toEqual([]);
    analytics.identify(new Identify().set('identityProvider', 'embedded'));
    expect(analytics.queued[0]).toMatchObject({
      event_type: '$identify',
      user_properties: { $set: { identityProvider: 'embedded' } },
    });
  });

  it('properties outside the allow-list (names, free text) are never queued', () => {
    const analytics = client();
    const error = vi.fn<AnalyticsCallback>();
    analytics.logEvent(
      'project created',
      { deviceId: 'd1', projectId: 'p1', title: 'Aorta study' } as never,
      undefined,
      error,
    );
    analytics.logEvent('room opened', { projectId: 'p1', roomId: 'Patient 7 room' }, undefined, error);
    expect(error).toHaveBeenCalledTimes(2);
    expect(analytics.queued).toEqual([]);
  });

  it('events only with the stored e-mail as user id', () => {
    const analytics = client();
    analytics.setUserId(null);
    const error = vi.fn<AnalyticsCallback>();
    log(analytics, 1, { error });
    expect(reasonOf(error)).toBe('user id not set');
  });
});

describe('consent', () => {
  it('withdrawn: nothing more is sent and what waited is forgotten, also an upload on its way', async () => {
    const analytics = client({ limits: { uploadThreshold: 1000 } });
    log(analytics, 2);
    transport.hang = true;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(transport.posts).toHaveLength(1);
    analytics.setOptOut(true);
    expect(analytics.queued).toEqual([]);
    expect(JSON.parse(storage.getItem(analyticsStorageKey)!)).toMatchObject({ queue: [] });
    analytics.flushWithBeacon();
    expect(transport.beacons).toEqual([]);
  });

  it('a cookie removed in another tab stops the next upload and clears the queue', async () => {
    const analytics = client();
    log(analytics, 2);
    consent = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(transport.posts).toEqual([]);
    expect(analytics.queued).toEqual([]);
  });
});

describe('device ids (spec §5)', () => {
  it('are generated without a dot, and one with a dot is refused', () => {
    const analytics = client();
    expect(analytics.deviceId).not.toContain('.');
    const before = analytics.deviceId;
    expect(analytics.setDeviceId('abc.def')).toBe(false);
    expect(analytics.deviceId).toBe(before);
    expect(analytics.setDeviceId('abc-def')).toBe(true);
    expect(analytics.deviceId).toBe('abc-def');
  });

  it('a stored device id with a dot is replaced', () => {
    storage.setItem(analyticsStorageKey, JSON.stringify({ deviceId: 'a.b' }));
    expect(client().deviceId).not.toContain('.');
  });
});

describe('beacon on page hide', () => {
  it('sends everything waiting as beacons of at most 100 events and empties the queue', () => {
    const analytics = client({ limits: { uploadThreshold: 1000 } });
    log(analytics, 105);
    analytics.flushWithBeacon();
    expect(transport.posts).toEqual([]);
    expect(transport.beacons.map((form) => events(form).length)).toEqual([100, 5]);
    const form = transport.beacons[0]!;
    expect(form.get('checksum')).toBe(md5Hex(`2key-1${form.get('e')}${form.get('upload_time')}`));
    expect(analytics.queued).toEqual([]);
  });

  it('stays within the 64 KiB budget and keeps the rest for the next visit', () => {
    const analytics = client({ limits: { uploadThreshold: 10_000, savedMaxCount: 10_000 } });
    log(analytics, 400);
    analytics.flushWithBeacon();
    const sizes = transport.beacons.map((form) => form.toString().length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(64 * 1024);
    const sent = transport.beacons.flatMap(events).length;
    expect(sent).toBeGreaterThan(0);
    expect(analytics.queued).toHaveLength(400 - sent);
    expect(JSON.parse(storage.getItem(analyticsStorageKey)!)).toMatchObject({ queue: { length: 400 - sent } });
  });

  it('splits a batch that sendBeacon refuses, recursively; a single refused event stays', () => {
    const analytics = client({ limits: { uploadThreshold: 1000 } });
    log(analytics, 8);
    // The browser takes beacons of up to 3 events, and never the one with p5.
    transport.beaconAccepts = (body) => {
      const batch = events(body);
      return batch.length <= 3 && !batch.some((event) => event.event_properties.projectId === 'p5');
    };
    analytics.flushWithBeacon();
    expect(transport.beacons.map((form) => events(form).map((event) => event.event_properties.projectId))).toEqual([
      ['p0', 'p1'],
      ['p2', 'p3'],
      ['p4'],
      ['p6', 'p7'],
    ]);
    expect(analytics.queued.map((event) => event.event_properties.projectId)).toEqual(['p5']);
  });

  it('sends nothing without consent or key', () => {
    const analytics = client();
    log(analytics, 3);
    consent = false;
    analytics.flushWithBeacon();
    expect(transport.beacons).toEqual([]);
    const keyless = client({ apiKey: null });
    keyless.flushWithBeacon();
    expect(transport.beacons).toEqual([]);
  });
});
