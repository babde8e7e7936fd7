import { pictureTooBigMessage, pictureTypeMessage } from '@insilico/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/helpers/browser';
import { putBytes, testPicture } from '../../../test/helpers/pictures';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, errorOf, json, send, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SUPPORT_EMAIL: 'help@insilico.test' });
});
afterAll(async () => {
  await server?.stop();
});

interface RequestBody {
  requestId: string;
  subject: string;
  status: string;
  replies: number;
  message: string;
  screenshotUrl: string | null;
  user: { userId: string; email: string };
  device: { deviceId: string; deviceName: string } | null;
  messages: { fromSupport: boolean; authorName: string; body: string }[];
}

async function staff(): Promise<Person> {
  const person = await signedIn(server);
  await server.context.supportStaff.set(person.account.email, true);
  return person;
}

async function ask(person: Person, body: Record<string, unknown>): Promise<RequestBody> {
  const response = await person.browser.postJson('/api/support/requests', body);
  expect(response.status).toBe(201);
  return json(response);
}

async function mailsTo(to: string) {
  return server.context.mail.outbox(50, to);
}

describe('ask support', () => {
  it('stores the request with its screenshot, mails support, and shows it to its author only', async () => {
    const user = await signedIn(server);
    const { deviceId } = await createWorkspace(user);
    const png = await testPicture('png', 1200, 800);
    const uploaded = await putBytes(user.browser, '/api/support/screenshot', png, { contentType: 'image/png' });
    expect(uploaded.status).toBe(200);
    const screenshot = await json<{ screenshotId: string; width: number; height: number }>(uploaded);
    expect(screenshot).toMatchObject({ width: 1200, height: 800 });

    const created = await ask(user, {
      subject: '  Mesh import fails  ',
      message: 'The STL of version 2 does not load.',
      screenshotId: screenshot.screenshotId,
    });
    expect(created).toMatchObject({
      subject: 'Mesh import fails',
      status: 'open',
      replies: 0,
      message: 'The STL of version 2 does not load.',
      user: { userId: user.id, email: user.account.email },
      device: { deviceId, deviceName: 'Valve X' },
      messages: [],
    });
    const [mail] = await mailsTo('help@insilico.test');
    expect(mail).toMatchObject({ subject: '[Support] Mesh import fails' });
    expect(mail!.text).toContain(`${user.account.fullName} (${user.account.email}) asks for help`);
    expect(mail!.text).toContain('The STL of version 2 does not load.');
    expect(mail!.text).toContain(`${server.origin}/support-inbox/${created.requestId}`);

    const image = await user.browser.get(created.screenshotUrl!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(1200);
    const thumb = await user.browser.get(`${created.screenshotUrl!}&size=thumb`);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(256);

    const list = await json<{ items: { requestId: string }[] }>(await user.browser.get('/api/support/requests'));
    expect(list.items.map((item) => item.requestId)).toEqual([created.requestId]);

    // Anybody else: the request does not exist.
    const other = await signedIn(server);
    expect((await errorOf(await other.browser.get(`/api/support/requests/${created.requestId}`))).status).toBe(404);
    expect((await other.browser.get(created.screenshotUrl!)).status).toBe(404);
    expect(await json(await other.browser.get('/api/support/requests'))).toEqual({ items: [] });
    expect(
      (await other.browser.postJson(`/api/support/requests/${created.requestId}/messages`, { body: 'me too' })).status,
    ).toBe(404);
    // A screenshot is used once: sent with the request, it is no one's draft any more.
    expect(
      (
        await errorOf(
          await user.browser.postJson('/api/support/requests', { ...created, screenshotId: screenshot.screenshotId }),
        )
      ).code,
    ).toBe('screenshot_not_found');
  });

  it('checks a screenshot by its content and size, and keeps one unsent screenshot per user', async () => {
    const user = await signedIn(server);
    const text = Buffer.from('not an image at all, only text');
    const wrongType = await putBytes(user.browser, '/api/support/screenshot', text, { contentType: 'image/png' });
    expect(await errorOf(wrongType)).toMatchObject({ status: 415, message: pictureTypeMessage });
    const big = Buffer.concat([await testPicture('png', 10, 10), Buffer.alloc(5120 * 1024)]);
    expect(await errorOf(await putBytes(user.browser, '/api/support/screenshot', big))).toMatchObject({
      status: 413,
      message: pictureTooBigMessage,
    });

    const first = await json<{ screenshotId: string }>(
      await putBytes(user.browser, '/api/support/screenshot', await testPicture('jpeg', 64, 64)),
    );
    const second = await json<{ screenshotId: string }>(
      await putBytes(user.browser, '/api/support/screenshot', await testPicture('jpeg', 64, 64)),
    );
    // The second replaced the first.
    expect(
      (
        await errorOf(
          await user.browser.postJson('/api/support/requests', {
            subject: 's',
            message: 'm',
            screenshotId: first.screenshotId,
          }),
        )
      ).code,
    ).toBe('screenshot_not_found');
    // Another user cannot send someone else's screenshot.
    const other = await signedIn(server);
    expect(
      (
        await other.browser.postJson('/api/support/requests', {
          subject: 's',
          message: 'm',
          screenshotId: second.screenshotId,
        })
      ).status,
    ).toBe(404);
    expect((await send(user.browser, 'DELETE', '/api/support/screenshot')).status).toBe(204);
    expect(
      (
        await user.browser.postJson('/api/support/requests', {
          subject: 's',
          message: 'm',
          screenshotId: second.screenshotId,
        })
      ).status,
    ).toBe(404);
    // Without a workspace and without a screenshot is fine.
    expect(await ask(user, { subject: 'Before onboarding', message: 'Question' })).toMatchObject({
      device: null,
      screenshotUrl: null,
    });
  });

  it('refuses an empty subject or message with a readable message', async () => {
    const user = await signedIn(server);
    const refused = await errorOf(
      await user.browser.postJson('/api/support/requests', { subject: '   ', message: 'x' }),
    );
    expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
    expect(
      (await user.browser.postJson('/api/support/requests', { subject: 'x'.repeat(151), message: 'x' })).status,
    ).toBe(400);
    expect((await new TestBrowser(server.origin).get('/api/support/requests')).status).toBe(401);
  });
});

describe('support inbox', () => {
  it('is refused to anybody without the support-staff flag', async () => {
    const user = await signedIn(server);
    const created = await ask(user, { subject: 'Help', message: 'Please' });
    for (const path of ['/api/support/inbox', `/api/support/inbox/${created.requestId}`])
      expect(await errorOf(await user.browser.get(path))).toEqual({
        status: 403,
        code: 'forbidden',
        message: 'The support inbox is for support staff only.',
      });
    expect(
      (await user.browser.postJson(`/api/support/inbox/${created.requestId}/answers`, { body: 'self-service' })).status,
    ).toBe(403);
    expect((await user.browser.postJson(`/api/support/inbox/${created.requestId}/close`, {})).status).toBe(403);
    expect(await json(await user.browser.get('/api/support/me'))).toEqual({
      isSupportStaff: false,
      supportEmail: 'help@insilico.test',
    });
  });

  it('lets support staff answer (mail and notification), the user follow up, and staff close', async () => {
    const user = await signedIn(server);
    const created = await ask(user, { subject: 'Cohort too small', message: 'I need 200 patients.' });
    const agent = await staff();
    expect(await json(await agent.browser.get('/api/support/me'))).toMatchObject({ isSupportStaff: true });

    const open = await json<{ items: { requestId: string; user: { email: string } }[] }>(
      await agent.browser.get('/api/support/inbox'),
    );
    expect(open.items).toContainEqual(
      expect.objectContaining({
        requestId: created.requestId,
        user: expect.objectContaining({ email: user.account.email }),
      }),
    );
    expect((await agent.browser.get(`/api/support/inbox/${created.requestId}`)).status).toBe(200);
    expect((await agent.browser.get('/api/support/inbox/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const answered = await agent.browser.postJson(`/api/support/inbox/${created.requestId}/answers`, {
      body: 'We raised your limit.',
    });
    expect(answered.status).toBe(200);
    expect(await json(answered)).toMatchObject({
      status: 'answered',
      replies: 1,
      messages: [{ fromSupport: true, authorName: 'Support', body: 'We raised your limit.' }],
    });
    const [mail] = await mailsTo(user.account.email);
    expect(mail).toMatchObject({ subject: 'Re: Cohort too small' });
    expect(mail!.text).toContain('We raised your limit.');
    expect(mail!.text).toContain(`${server.origin}/help?request=${created.requestId}`);
    const notifications = await json<{ items: { kind: string; title: string; link: string }[] }>(
      await user.browser.get('/api/notifications'),
    );
    expect(notifications.items).toContainEqual(
      expect.objectContaining({
        kind: 'support.answered',
        title: 'Support answered: Cohort too small',
        link: `/help?request=${created.requestId}`,
      }),
    );
    expect(
      (await json<{ items: { requestId: string }[] }>(await agent.browser.get('/api/support/inbox'))).items,
    ).not.toContainEqual(expect.objectContaining({ requestId: created.requestId }));

    const followUp = await user.browser.postJson(`/api/support/requests/${created.requestId}/messages`, {
      body: 'Thanks, and 500?',
    });
    expect(await json(followUp)).toMatchObject({ status: 'open', replies: 2 });
    expect((await mailsTo('help@insilico.test'))[0]).toMatchObject({ subject: '[Support] Re: Cohort too small' });

    const closed = await agent.browser.postJson(`/api/support/inbox/${created.requestId}/close`, {});
    expect(await json(closed)).toMatchObject({ status: 'closed' });
    expect(
      await errorOf(
        await user.browser.postJson(`/api/support/requests/${created.requestId}/messages`, { body: 'And?' }),
      ),
    ).toMatchObject({ status: 409, code: 'request_closed' });
    expect(
      (await agent.browser.postJson(`/api/support/inbox/${created.requestId}/answers`, { body: 'late' })).status,
    ).toBe(409);
    const all = await json<{ items: { requestId: string; status: string }[] }>(
      await agent.browser.get('/api/support/inbox?status=closed'),
    );
    expect(all.items).toContainEqual(expect.objectContaining({ requestId: created.requestId, status: 'closed' }));
    expect((await agent.browser.get('/api/support/inbox?status=spam')).status).toBe(400);
  });

  it('sets the flag only through the operator (the API has no way to)', async () => {
    const user = await signedIn(server);
    expect(
      (await user.browser.postJson('/api/operator/support-staff', { email: user.account.email, isSupport: true }))
        .status,
    ).toBeGreaterThanOrEqual(403);
    expect(await json(await user.browser.get('/api/support/me'))).toMatchObject({ isSupportStaff: false });
    await expect(server.context.supportStaff.set('nobody@example.com', true)).rejects.toMatchObject({
      status: 404,
    });
    await server.context.supportStaff.set(user.account.email.toUpperCase(), true);
    expect(await json(await user.browser.get('/api/support/me'))).toMatchObject({ isSupportStaff: true });
    await server.context.supportStaff.set(user.account.email, false);
    expect((await user.browser.get('/api/support/inbox')).status).toBe(403);
  });
});
