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

async function signedInUser(): Promise<{ browser: TestBrowser; userId: string }> {
  const browser = new TestBrowser(server.origin);
  await signUp(browser, newAccount(), '/');
  const me = (await (await browser.get('/api/auth/me')).json()) as { id: string };
  return { browser, userId: me.id };
}

describe('notifications', () => {
  it('lists newest first with paging, tracks unseen, marks seen, and posts once per dedupe key', async () => {
    const { browser, userId } = await signedInUser();
    expect(await (await browser.get('/api/notifications')).json()).toEqual({
      items: [],
      hasUnseen: false,
      nextBefore: null,
    });
    for (let i = 1; i <= 3; i += 1) {
      await server.context.notifications.post({ userId, kind: 'test', title: `Note ${i}`, dedupeKey: `k${i}` });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(
      await server.context.notifications.post({ userId, kind: 'test', title: 'Note 3 again', dedupeKey: 'k3' }),
    ).toBeNull();
    const first = (await (await browser.get('/api/notifications?limit=2')).json()) as {
      items: { id: string; title: string }[];
      hasUnseen: boolean;
      nextBefore: string;
    };
    expect(first.items.map((n) => n.title)).toEqual(['Note 3', 'Note 2']);
    expect(first.hasUnseen).toBe(true);
    const second = (await (
      await browser.get(`/api/notifications?limit=2&before=${encodeURIComponent(first.nextBefore)}`)
    ).json()) as {
      items: { title: string }[];
      nextBefore: string | null;
    };
    expect(second.items.map((n) => n.title)).toEqual(['Note 1']);
    expect(second.nextBefore).toBeNull();
    const seen = await browser.postJson('/api/notifications/seen', { ids: [first.items[0]!.id] });
    expect(await seen.json()).toEqual({ hasUnseen: true });
    expect(await (await browser.postJson('/api/notifications/seen', { all: true })).json()).toEqual({
      hasUnseen: false,
    });
  });

  it('does not show or mark another user’s notifications', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const note = await server.context.notifications.post({ userId: owner.userId, kind: 'test', title: 'Private' });
    expect(((await (await other.browser.get('/api/notifications')).json()) as { items: unknown[] }).items).toEqual([]);
    await other.browser.postJson('/api/notifications/seen', { ids: [note!.id] });
    expect(((await (await owner.browser.get('/api/notifications')).json()) as { hasUnseen: boolean }).hasUnseen).toBe(
      true,
    );
  });

  it('rejects bad input with 400 and a message', async () => {
    const { browser } = await signedInUser();
    const response = await browser.postJson('/api/notifications/seen', { ids: [] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'Some of what was sent is not valid.',
    );
    expect((await browser.get('/api/notifications?limit=1000')).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await new TestBrowser(server.origin).get('/api/notifications')).status).toBe(401);
    expect((await new TestBrowser(server.origin).get('/api/notifications/stream')).status).toBe(401);
  });

  it('streams a posted notification over Server-Sent Events', async () => {
    const { browser, userId } = await signedInUser();
    const controller = new AbortController();
    const response = await fetch(`${server.origin}/api/notifications/stream`, {
      headers: { cookie: `session=${browser.cookies.get('session')}` },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 10_000;
      while (!received.includes(needle) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('event: unseen');
    expect(received).toContain('data: {"hasUnseen":false}');
    await server.context.notifications.post({ userId, kind: 'test', title: 'Live one' });
    await readUntil('Live one');
    controller.abort();
    expect(received).toMatch(/event: notification\ndata: \{[^\n]*"title":"Live one"/);
  });
});
