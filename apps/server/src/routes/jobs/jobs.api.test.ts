import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUp, TestBrowser } from '../../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface JobBody {
  id: string;
  status: string;
  progress: number;
  attempts: number;
}

describe('durable jobs worked in-process', () => {
  it('runs a self-check with stored progress and ends in one notification', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const started = await browser.postJson('/api/jobs/self-check', { seconds: 2 });
    expect(started.status).toBe(202);
    const job = (await started.json()) as JobBody;
    expect(job.status).toBe('queued');
    const seen = new Set<string>();
    let current = job;
    const deadline = Date.now() + 30_000;
    while (current.status !== 'completed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      current = (await (await browser.get(`/api/jobs/${job.id}`)).json()) as JobBody;
      seen.add(current.status);
    }
    expect(current).toMatchObject({ status: 'completed', progress: 1, attempts: 1 });
    expect(seen.has('running')).toBe(true);
    const list = (await (await browser.get('/api/notifications')).json()) as { items: { kind: string }[] };
    expect(list.items.filter((n) => n.kind === 'job.self-check')).toHaveLength(1);
  });

  it('delivers the job’s notification to an open event stream', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/api/notifications/stream`, {
      headers: { cookie: `session=${browser.cookies.get('session')}` },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    expect((await browser.postJson('/api/jobs/self-check', { seconds: 1 })).status).toBe(202);
    const deadline = Date.now() + 20_000;
    while (!received.includes('Background jobs are working') && Date.now() < deadline) {
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<{ value: undefined; done: true }>((resolve) =>
          setTimeout(() => resolve({ value: undefined, done: true }), deadline - Date.now()),
        ),
      ]);
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    controller.abort();
    expect(received).toContain('event: notification');
    expect(received).toContain('Background jobs are working');
  });

  it('hides other users’ jobs and validates input', async () => {
    const owner = new TestBrowser(server.origin);
    await signUp(owner, newAccount(), '/');
    const job = (await (await owner.postJson('/api/jobs/self-check', { seconds: 1 })).json()) as JobBody;
    const other = new TestBrowser(server.origin);
    await signUp(other, newAccount(), '/');
    expect((await other.get(`/api/jobs/${job.id}`)).status).toBe(404);
    expect((await other.get('/api/jobs/not-a-uuid')).status).toBe(400);
    expect((await other.postJson('/api/jobs/self-check', { seconds: 1000 })).status).toBe(400);
  });
});
