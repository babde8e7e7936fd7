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

describe('maintenance mode', () => {
  it('answers 503 with the operator text on the API and pages, keeps sign-in and health up', async () => {
    const browser = new TestBrowser(server.origin);
    await signUp(browser, newAccount(), '/');
    const text = 'Upgrading the database until 14:00 UTC.';
    await server.context.maintenance.switchOn(text);
    try {
      const api = await browser.get('/api/notifications');
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ error: { code: 'maintenance', message: text } });
      const page = await browser.get('/projects/overview');
      expect(page.status).toBe(503);
      expect(await page.text()).toContain(text);
      const notice = await browser.get('/maintenance.html');
      expect(notice.status).toBe(200);
      expect(await notice.text()).toContain(text);
      const health = await browser.get('/api/health');
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', maintenance: true });
      expect((await browser.get('/api/auth/me')).status).toBe(200);
      expect((await new TestBrowser(server.origin).get('/api/auth/login?returnTo=/')).status).toBe(302);
    } finally {
      await server.context.maintenance.switchOff();
    }
    expect((await browser.get('/api/notifications')).status).toBe(200);
  });

  it('escapes the operator text on the page', async () => {
    await server.context.maintenance.switchOn('<script>alert(1)</script>');
    try {
      const html = await (await new TestBrowser(server.origin).get('/maintenance.html')).text();
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    } finally {
      await server.context.maintenance.switchOff();
    }
  });

  it('answers /api/health with the database state', async () => {
    const response = await new TestBrowser(server.origin).get('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'ok', maintenance: false });
  });

  it('serves the OpenAPI document of the API', async () => {
    const response = await new TestBrowser(server.origin).get('/api/docs/json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/auth/me', '/api/notifications', '/api/jobs/{id}', '/api/health']),
    );
  });
});
