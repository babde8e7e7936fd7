import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyticsEventListSchema,
  analyticsReportSchema,
  type AnalyticsEvent,
  type AnalyticsEventList,
  type AnalyticsUploadForm,
} from '@insilico/contracts/analytics';
import { loadConfig } from '../../config';
import { AnalyticsRepository } from '../../repositories/analytics.repository';
import { serverFile, startServer } from '../../server';
import { analyticsChecksum, AnalyticsService } from '../../services/analytics.service';
import { ServiceError } from '../../services/errors';
import { TestBrowser } from '../../../test/helpers/browser';
import { freePort, startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { errorOf, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
let ada: Person;
const key = 'insilico-workspace';
const consent = 'insilico_analytics';

beforeAll(async () => {
  // A small body limit, so a 413 is reached with a few dozen events.
  server = await startTestServer({ ANALYTICS_BODY_LIMIT_KB: '8' });
  ada = await signedIn(server);
  ada.browser.cookies.set(consent, '1');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function event(person: Person, type: string, properties: Record<string, unknown>, at = Date.now()): AnalyticsEvent {
  return {
    event_type: type,
    event_id: 1,
    session_id: at,
    timestamp: at,
    sequence_number: 1,
    insert_id: randomUUID(),
    device_id: 'c0ffee-device',
    user_id: person.account.email,
    event_properties: properties,
    user_properties: {},
    platform: 'Web',
    language: 'en',
    library: { name: 'insilico-web', version: '1' },
  };
}

/** The form of HTTP API v2, signed as the protocol defines it (node's md5, apart from the server's code). */
function form(events: unknown[] | string, overrides: Record<string, string> = {}): Record<string, string> {
  const e = typeof events === 'string' ? events : JSON.stringify(events);
  const uploadTime = String(Date.now());
  const fields = { client: key, e, v: '2', upload_time: uploadTime, ...overrides };
  const checksum = createHash('md5')
    .update(fields.v + fields.client + fields.e + fields.upload_time)
    .digest('hex');
  return { ...fields, checksum, ...('checksum' in overrides ? { checksum: overrides.checksum } : {}) };
}

function upload(person: Person, fields: Record<string, string>): Promise<Response> {
  return person.browser.postForm('/api/analytics/ingest', fields);
}

async function report(days = 1) {
  return server.context.analytics.report(days);
}

describe('analytics configuration', () => {
  it('answers the key and our own ingestion path; ANALYTICS_KEY set empty turns analytics off', async () => {
    const response = await ada.browser.get('/api/analytics/config');
    expect(await response.json()).toEqual({ key, url: '/api/analytics/ingest' });
    expect(loadConfig({ ANALYTICS_KEY: '' }).analytics.key).toBeNull();
    expect(loadConfig({ ANALYTICS_KEY: 'k-1' }).analytics).toEqual({
      key: 'k-1',
      bodyLimitBytes: 512 * 1024,
      retentionDays: 400,
      forwardUrl: null,
    });
    expect(() => loadConfig({ ANALYTICS_BODY_LIMIT_KB: '0' })).toThrow(/ANALYTICS_BODY_LIMIT_KB/);
  });

  it('the checksum is md5(v + client + e + upload_time) on a known vector', () => {
    expect(
      analyticsChecksum({ v: '2', client: key, e: '[{"event_type":"signed in"}]', upload_time: '1767225600000' }),
    ).toBe('ac9044e8dc25936ee7063dd5422ae26e');
  });
});

describe('POST /api/analytics/ingest', () => {
  it('stores the events and answers 200 with the body success; a resend of the same events is stored once', async () => {
    const before = await report();
    const events = [
      event(ada, 'signed in', {}),
      event(ada, 'page viewed', { route: '/projects/:id' }),
      { ...event(ada, '$identify', {}), user_properties: { $set: { identityProvider: 'embedded' } } },
    ];
    const response = await upload(ada, form(events));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('success');
    expect((await upload(ada, form(events))).status).toBe(200);
    const after = await report();
    const today = after.days.at(-1)!;
    const earlier = before.days.at(-1)?.events ?? {};
    expect(today.events['signed in']).toBe((earlier['signed in'] ?? 0) + 1);
    expect(today.events['page viewed']).toBe((earlier['page viewed'] ?? 0) + 1);
    expect(today.events.$identify).toBe((earlier.$identify ?? 0) + 1);
  });

  it('takes the form as sendBeacon sends it (charset in the content type)', async () => {
    const response = await ada.browser.request('/api/analytics/ingest', {
      method: 'POST',
      body: new URLSearchParams(form([event(ada, 'signed in', {})])).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong checksum, another key and a malformed form, each with its message', async () => {
    const good = [event(ada, 'signed in', {})];
    const cases: Array<[Record<string, string>, string]> = [
      [form(good, { checksum: '0'.repeat(32) }), 'The checksum does not match the uploaded events.'],
      [form(good, { client: 'someone-else' }), 'The analytics key (client) is not this server’s.'],
      [form(good, { v: '3' }), 'v must be 2.'],
      [form(good, { upload_time: 'yesterday' }), 'upload_time must be a time in milliseconds.'],
      [form(good, { checksum: 'abc' }), 'checksum must be an md5 digest in hex.'],
      [
        { ...form(good), extra: '1' },
        'An analytics upload has the fields client, e, v, upload_time and checksum only.',
      ],
      [form('not json'), 'The events (e) are not JSON.'],
      [form('[]'), 'The events (e) must be a non-empty JSON array.'],
    ];
    const { client: _client, ...withoutClient } = form(good);
    cases.push([withoutClient, 'Send the analytics key as client.']);
    for (const [fields, message] of cases) {
      const response = await upload(ada, fields);
      expect({ status: response.status, message: (await errorOf(response)).message }).toEqual({ status: 400, message });
    }
  });

  it('refuses events outside the allow-list, a device id with a dot and another user’s events', async () => {
    const cases: Array<[AnalyticsEvent, RegExp]> = [
      [
        event(ada, 'patient renamed', {}),
        /^Event 1 is not valid \(event_type: unknown event type "patient renamed"\)\.$/,
      ],
      [
        event(ada, 'project created', { deviceId: 'd1', projectId: 'p1', title: 'Aorta study' }),
        /event_properties: not the allowed properties of "project created"/,
      ],
      [event(ada, 'room opened', { projectId: 'p1', roomId: 'Patient 7' }), /not the allowed properties/],
      [
        { ...event(ada, 'signed in', {}), device_id: 'abc.def' },
        /device_id: An analytics device id must contain no dot\./,
      ],
      [
        { ...event(ada, 'signed in', {}), user_properties: { $set: { identityProvider: 'embedded' } } },
        /only an identify/,
      ],
      [{ ...event(ada, 'signed in', {}), user_id: 'someone@example.com' }, /^Event 1 is not the signed-in user’s\.$/],
      [{ ...event(ada, 'signed in', {}), insert_id: 'not-a-uuid' }, /insert_id/],
    ];
    for (const [bad, message] of cases) {
      const response = await upload(ada, form([event(ada, 'signed in', {}), bad].reverse()));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toMatch(message);
    }
  });

  it('answers 413 above the body limit, so the client halves its batch', async () => {
    const events = Array.from({ length: 60 }, (_, i) =>
      event(ada, 'project created', { deviceId: 'd1', projectId: `p${i}` }),
    );
    const response = await upload(ada, form(events));
    expect(response.status).toBe(413);
    expect((await upload(ada, form(events.slice(0, 10)))).status).toBe(200);
  });

  it('needs a signed-in user, the consent cookie and our own origin', async () => {
    const fields = form([event(ada, 'signed in', {})]);
    const anonymous = await fetch(`${server.origin}/api/analytics/ingest`, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { origin: server.origin },
    });
    expect(anonymous.status).toBe(401);
    ada.browser.cookies.delete(consent);
    try {
      const withoutConsent = await upload(ada, fields);
      expect(await errorOf(withoutConsent)).toEqual({
        status: 403,
        code: 'analytics_consent',
        message: 'Analytics consent is not given in this browser.',
      });
    } finally {
      ada.browser.cookies.set(consent, '1');
    }
    const foreign = await ada.browser.request('/api/analytics/ingest', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });

  it('limits each user to 60 uploads a minute (429), others unaffected', async () => {
    const busy = await signedIn(server);
    busy.browser.cookies.set(consent, '1');
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await upload(busy, form([event(busy, 'signed in', {})]))).status);
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    const refused = await upload(busy, form([event(busy, 'signed in', {})]));
    expect(await errorOf(refused)).toEqual({
      status: 429,
      code: 'rate_limited',
      message: 'Too many analytics uploads. Please try again in a minute.',
    });
    expect((await upload(ada, form([event(ada, 'signed in', {})]))).status).toBe(200);
  });
});

describe('the rate limit, shared by every server on one database', () => {
  it('counts the uploads of a user in the database: two servers together allow 60 a minute', async () => {
    const dora = await signedIn(server);
    dora.browser.cookies.set(consent, '1');
    // PostgreSQL: a second real server on the same database, reached over HTTP with Dora's session. The embedded
    // database belongs to one process: there the second "server" is a second ingestion over the same database.
    let second: { upload(fields: Record<string, string>): Promise<number>; stop(): Promise<void> };
    if (server.databaseUrl) {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), 'insilico-test-'));
      const other = await startServer(
        loadConfig({
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          WEB_DIST_DIR: join(dataDir, 'no-web-build'),
          DATABASE_URL: server.databaseUrl,
        }),
        { url: server.databaseUrl, poolSize: 5 },
      );
      const browser = new TestBrowser(`http://127.0.0.1:${port}`);
      for (const [name, value] of dora.browser.cookies) browser.cookies.set(name, value);
      second = {
        upload: async (fields) => (await browser.postForm('/api/analytics/ingest', fields)).status,
        stop: async () => {
          await other.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } else {
      const ingestion = new AnalyticsService(new AnalyticsRepository(server.context.db.orm), {
        key,
        retentionDays: 400,
      });
      second = {
        upload: (fields) =>
          ingestion.ingest({ id: dora.id, email: dora.account.email }, fields as AnalyticsUploadForm).then(
            () => 200,
            (error: unknown) => (error instanceof ServiceError ? error.status : 500),
          ),
        stop: async () => {},
      };
    }
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        statuses.push((await upload(dora, form([event(dora, 'signed in', {})]))).status);
        statuses.push(await second.upload(form([event(dora, 'signed in', {})])));
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      // The 61st is refused by either server: the count is the database's, not a process's.
      expect(await second.upload(form([event(dora, 'signed in', {})]))).toBe(429);
      expect(await errorOf(await upload(dora, form([event(dora, 'signed in', {})])))).toMatchObject({ status: 429 });
    } finally {
      await second.stop();
    }
  }, 120_000);

  it('opens a new window once the last one has passed (fixed window from the first upload)', async () => {
    const erin = await signedIn(server);
    let now = Date.now();
    const limited = new AnalyticsService(new AnalyticsRepository(server.context.db.orm), {
      key,
      retentionDays: 400,
      rateLimit: { uploads: 2, windowMs: 60_000 },
      now: () => now,
    });
    const send = () =>
      limited.ingest(
        { id: erin.id, email: erin.account.email },
        form([event(erin, 'signed in', {})]) as AnalyticsUploadForm,
      );
    await send();
    now += 30_000;
    await send();
    await expect(send()).rejects.toMatchObject({ status: 429 });
    now += 30_001;
    await expect(send()).resolves.toEqual({ stored: 1 });
  });
});

describe('the operator page’s API (operators only)', () => {
  let olga: Person;
  let frank: Person;

  beforeAll(async () => {
    [olga, frank] = [await signedIn(server), await signedIn(server)];
    frank.browser.cookies.set(consent, '1');
    await server.context.analytics.setOperator(olga.account.email.toUpperCase(), true);
  });

  it('says who is an operator, and refuses the report and the events to anybody else (403, nothing shown)', async () => {
    expect(await (await olga.browser.get('/api/analytics/access')).json()).toEqual({ isOperator: true });
    expect(await (await frank.browser.get('/api/analytics/access')).json()).toEqual({ isOperator: false });
    for (const path of ['/api/analytics/report?days=7', '/api/analytics/events'])
      expect(await errorOf(await frank.browser.get(path))).toEqual({
        status: 403,
        code: 'forbidden',
        message: 'The product analytics are for operators only.',
      });
    expect((await new TestBrowser(server.origin).get('/api/analytics/report')).status).toBe(401);
    await expect(server.context.analytics.setOperator('nobody@example.com', true)).rejects.toThrow(
      'Nobody with the e-mail nobody@example.com has signed in yet.',
    );
    expect((await server.context.analytics.operators()).map((person) => person.id)).toContain(olga.id);
  });

  it('answers the report with the features, and refuses a period out of range with a message', async () => {
    const answer = await olga.browser.get('/api/analytics/report?days=7');
    expect(answer.status).toBe(200);
    const body = analyticsReportSchema.parse(await answer.json());
    expect(body.funnel.map((step) => step.step)).toEqual([
      'workspace created',
      'project created',
      'room opened',
      'simulation started',
      'simulation completed',
    ]);
    expect(body.features.length).toBeGreaterThan(0);
    for (const days of ['0', '3661', 'x'])
      expect(await errorOf(await olga.browser.get(`/api/analytics/report?days=${days}`))).toMatchObject({
        status: 400,
        message: expect.stringContaining('Give the number of days as a whole number from 1 to 3660.') as string,
      });
  });

  it('pages the received events newest first with a cursor, filters by type, and refuses a bad cursor', async () => {
    const now = Date.now();
    const sent = Array.from({ length: 5 }, (_, index) =>
      event(frank, 'room opened', { projectId: 'p9', roomId: `r${index}` }, now - 10_000 + index * 1000),
    );
    expect((await upload(frank, form(sent))).status).toBe(200);
    const pages: AnalyticsEventList[] = [];
    let next: string | null = null;
    do {
      const query: string = `/api/analytics/events?eventType=room%20opened&limit=2${next ? `&before=${next}` : ''}`;
      const page = analyticsEventListSchema.parse(await (await olga.browser.get(query)).json());
      pages.push(page);
      next = page.next;
    } while (next && pages.length < 20);
    const franks = pages.flatMap((page) => page.items).filter((item) => item.userEmail === frank.account.email);
    expect(franks.map((item) => item.properties.roomId)).toEqual(['r4', 'r3', 'r2', 'r1', 'r0']);
    expect(pages.every((page) => page.items.length <= 2)).toBe(true);
    expect(pages.flatMap((page) => page.items).every((item) => item.eventType === 'room opened')).toBe(true);
    expect(franks[0]).toMatchObject({ deviceId: 'c0ffee-device', occurredAt: new Date(now - 6000).toISOString() });
    expect(await errorOf(await olga.browser.get('/api/analytics/events?before=yesterday'))).toMatchObject({
      status: 400,
      message: expect.stringContaining('before must be the cursor of an earlier page.') as string,
    });
    expect(await errorOf(await olga.browser.get('/api/analytics/events?limit=500'))).toMatchObject({ status: 400 });
    expect(await errorOf(await olga.browser.get('/api/analytics/events?eventType=%3Cb%3E'))).toMatchObject({
      status: 400,
      message: expect.stringContaining('eventType must be the name of an event type.') as string,
    });
  });

  it('refuses a client event of the server’s own kinds or device id', async () => {
    const completed = event(frank, 'simulation completed', { projectId: 'p', roomId: 'r', simulationId: 's' });
    expect(await errorOf(await upload(frank, form([completed])))).toMatchObject({
      status: 400,
      message: 'Event 1 is not valid (event_type: unknown event type "simulation completed").',
    });
    const posing = { ...event(frank, 'signed in', {}), device_id: 'server' };
    expect(await errorOf(await upload(frank, form([posing])))).toMatchObject({
      status: 400,
      message: 'Event 1: the device id server is the server’s.',
    });
  });
});

describe('operator report', () => {
  it('counts events per day and type, active users, and the funnel in order', async () => {
    const [bob, carol] = [await signedIn(server), await signedIn(server)];
    for (const person of [bob, carol]) person.browser.cookies.set(consent, '1');
    const now = Date.now();
    const ids = { deviceId: 'd1', projectId: 'p1', roomId: 'r1', simulationId: 's1' };
    // Bob goes the whole way; Carol opens a room before creating her workspace (out of order: not counted past it).
    const bobs = [
      event(bob, 'workspace created', { deviceId: ids.deviceId }, now - 4000),
      event(bob, 'project created', { deviceId: ids.deviceId, projectId: ids.projectId }, now - 3000),
      event(bob, 'room opened', { projectId: ids.projectId, roomId: ids.roomId }, now - 2000),
      event(
        bob,
        'simulation started',
        { projectId: ids.projectId, roomId: ids.roomId, simulationId: 's1' },
        now - 1000,
      ),
    ];
    const carols = [
      event(carol, 'room opened', { projectId: ids.projectId, roomId: ids.roomId }, now - 5000),
      event(carol, 'workspace created', { deviceId: ids.deviceId }, now - 4000),
      event(carol, 'project created', { deviceId: ids.deviceId, projectId: ids.projectId }, now - 3000),
    ];
    expect((await upload(bob, form(bobs))).status).toBe(200);
    expect((await upload(carol, form(carols))).status).toBe(200);
    const result = await report(7);
    expect(result.days).toHaveLength(1);
    expect(result.days[0]!.activeUsers).toBeGreaterThanOrEqual(2);
    expect(result.days[0]!.events['simulation started']).toBe(1);
    expect(result.funnel).toEqual([
      { step: 'workspace created', users: 2 },
      { step: 'project created', users: 2 },
      { step: 'room opened', users: 1 },
      { step: 'simulation started', users: 1 },
      { step: 'simulation completed', users: 0 },
    ]);
    expect(result.features).toContainEqual({ eventType: 'workspace created', events: 2, users: 2 });
    expect(result.features).toContainEqual({ eventType: 'simulation started', events: 1, users: 1 });

    // The server's own event (device `server`): the last step of Bob's funnel, and it makes nobody active (Gina).
    const gina = await signedIn(server);
    const repository = new AnalyticsRepository(server.context.db.orm);
    const serverEvent = (userId: string, simulationId: string) => ({
      insertId: randomUUID(),
      userId,
      deviceId: 'server',
      sessionId: 0,
      eventType: 'simulation completed',
      properties: { projectId: ids.projectId, roomId: ids.roomId, simulationId },
      occurredAt: new Date(now - 500),
    });
    expect(await repository.insert([serverEvent(bob.id, 's1'), serverEvent(gina.id, 's2')])).toBe(2);
    const withServer = await report(7);
    expect(withServer.days[0]!.activeUsers).toBe(result.days[0]!.activeUsers);
    expect(withServer.funnel.at(-1)).toEqual({ step: 'simulation completed', users: 1 });
    expect(withServer.features).toContainEqual({ eventType: 'simulation completed', events: 2, users: 2 });
    await expect(server.context.analytics.report(0)).rejects.toThrow(
      'Give the number of days as a whole number from 1 to 3660.',
    );
  });

  // With PostgreSQL there is no operator route: `npm run operator -- analytics` reads the database itself.
  it('is served to the operator only (loopback and the DATA_DIR token)', async () => {
    if (server.databaseUrl) {
      expect((await fetch(`${server.origin}/api/operator/analytics?days=7`)).status).toBe(404);
      return;
    }
    const { operatorToken } = JSON.parse(readFileSync(serverFile(server.dataDir), 'utf8')) as {
      operatorToken: string;
    };
    const answer = await fetch(`${server.origin}/api/operator/analytics?days=7`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(answer.status).toBe(200);
    expect(analyticsReportSchema.parse(await answer.json()).funnel[0]!.users).toBeGreaterThanOrEqual(2);
    expect((await ada.browser.get('/api/operator/analytics?days=7')).status).toBe(403);

    // `npm run operator -- operators <e-mail> on|off` through the running server; never from a browser session.
    const operators = (method: 'GET' | 'POST', body?: unknown) =>
      fetch(`${server.origin}/api/operator/operators`, {
        method,
        headers: {
          authorization: `Bearer ${operatorToken}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const granted = await operators('POST', { email: ada.account.email, isOperator: true });
    expect(await granted.json()).toEqual({
      items: [{ id: ada.id, email: ada.account.email, fullName: ada.account.fullName, isOperator: true }],
    });
    expect(await (await ada.browser.get('/api/analytics/access')).json()).toEqual({ isOperator: true });
    const listed = (await (await operators('GET')).json()) as { items: Array<{ id: string }> };
    expect(listed.items.map((person) => person.id)).toContain(ada.id);
    await operators('POST', { email: ada.account.email, isOperator: false });
    expect(await (await ada.browser.get('/api/analytics/access')).json()).toEqual({ isOperator: false });
    expect(
      (await ada.browser.postJson('/api/operator/operators', { email: ada.account.email, isOperator: true })).status,
    ).toBe(403);
  });
});

describe('ANALYTICS_URL: an external ingestion of the same protocol', () => {
  let external: Server;
  let forwarding: TestServer;
  let carl: Person;
  const received: URLSearchParams[] = [];
  const answers: Array<{ status: number; body: string }> = [];

  beforeAll(async () => {
    external = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(new URLSearchParams(body));
        const answer = answers.shift() ?? { status: 200, body: 'success' };
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => external.listen(0, '127.0.0.1', resolve));
    const { port } = external.address() as { port: number };
    forwarding = await startTestServer({ ANALYTICS_URL: `http://127.0.0.1:${port}/2/httpapi` });
    carl = await signedIn(forwarding);
    carl.browser.cookies.set(consent, '1');
  }, 60_000);
  afterAll(async () => {
    await forwarding?.stop();
    await new Promise((resolve) => external?.close(resolve));
  });

  it('gets every accepted upload unchanged; its 413 is ours, its failure a 503, and a resend is stored once', async () => {
    const events = [event(carl, 'signed in', {})];
    const fields = form(events);
    const accepted = await carl.browser.postForm('/api/analytics/ingest', fields);
    expect(accepted.status).toBe(200);
    expect(Object.fromEntries(received.at(-1)!)).toEqual(fields);

    answers.push({ status: 413, body: 'too big' });
    const tooLarge = await carl.browser.postForm('/api/analytics/ingest', form([event(carl, 'signed in', {})]));
    expect(await errorOf(tooLarge)).toMatchObject({ status: 413 });

    answers.push({ status: 500, body: 'down' });
    const again = form([event(carl, 'signed in', {})]);
    const failed = await carl.browser.postForm('/api/analytics/ingest', again);
    expect(await errorOf(failed)).toEqual({
      status: 503,
      code: 'analytics_upstream',
      message: 'The analytics service did not take the events (status 500); they will be sent again.',
    });
    expect((await carl.browser.postForm('/api/analytics/ingest', again)).status).toBe(200);
    // Stored here: the first upload, the one refused as too large, and the resent one once.
    const today = (await forwarding.context.analytics.report(1)).days.at(-1)!;
    expect(today.events['signed in']).toBe(3);
    // A bad upload is refused here and never forwarded.
    const before = received.length;
    expect(
      (await carl.browser.postForm('/api/analytics/ingest', form(events, { checksum: '0'.repeat(32) }))).status,
    ).toBe(400);
    expect(received).toHaveLength(before);
  });
});
