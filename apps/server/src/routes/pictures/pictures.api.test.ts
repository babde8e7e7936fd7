import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { noPermissionMessage, pictureMaxBytes, pictureTooBigMessage, pictureTypeMessage } from '@insilico/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../../test/helpers/browser';
import { putBytes, testPicture } from '../../../test/helpers/pictures';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import {
  createWorkspace,
  errorOf,
  joinedMember,
  json,
  send,
  signedIn,
  workspaceBody,
  type Person,
} from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
let jpeg: Buffer;
let png: Buffer;
beforeAll(async () => {
  server = await startTestServer();
  jpeg = await sharp(await testPicture('jpeg', 800, 600))
    .withExif({ IFD0: { Model: 'SecretCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1' } })
    .jpeg()
    .toBuffer();
  png = await testPicture('png', 300, 200);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** The picture files kept in storage for a region (names only). */
function storedPictures(region: 'eu' | 'us'): string[] {
  const folder = join(server.dataDir, 'blobs', region, 'pictures');
  return existsSync(folder) ? readdirSync(folder).filter((name) => !name.endsWith('.part')) : [];
}

/** `?v=` of a picture URL: the stored file's id. */
function versionOf(url: string): string {
  return new URL(url, server.origin).searchParams.get('v')!;
}

async function me(person: Person): Promise<{ pictureUrl: string | null }> {
  return json(await person.browser.get('/api/auth/me'));
}

describe('profile picture', () => {
  it('is uploaded as the raw body, re-encoded without metadata, and shown as the avatar', async () => {
    const person = await signedIn(server);
    const response = await putBytes(person.browser, '/api/me/picture', jpeg, { contentType: 'image/jpeg' });
    expect(response.status).toBe(200);
    const { pictureUrl } = await json<{ pictureUrl: string }>(response);
    expect(pictureUrl).toBe(`/api/users/${person.id}/picture?size=thumb&v=${versionOf(pictureUrl)}`);
    expect((await me(person)).pictureUrl).toBe(pictureUrl);
    expect((await json<{ pictureUrl: string }>(await person.browser.get('/api/me/profile'))).pictureUrl).toBe(
      pictureUrl,
    );

    const thumb = await person.browser.get(pictureUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const thumbBytes = Buffer.from(await thumb.arrayBuffer());
    expect(await sharp(thumbBytes).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 256 });

    const full = await person.browser.get(`/api/users/${person.id}/picture`);
    expect(full.headers.get('cache-control')).toBe('private, no-cache');
    const fullBytes = Buffer.from(await full.arrayBuffer());
    const metadata = await sharp(fullBytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect(metadata.exif).toBeUndefined();
    expect(fullBytes.includes(Buffer.from('SecretCam'))).toBe(false);

    // Revalidation: the same version answers 304 without the bytes.
    const etag = full.headers.get('etag')!;
    const again = await person.browser.request(`/api/users/${person.id}/picture`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('judges by content, not by the declared type: a PNG sent as image/jpeg is kept as a PNG', async () => {
    const person = await signedIn(server);
    const response = await putBytes(person.browser, '/api/me/picture', png, { contentType: 'image/jpeg' });
    expect(response.status).toBe(200);
    const picture = await person.browser.get(`/api/users/${person.id}/picture`);
    expect(picture.headers.get('content-type')).toBe('image/png');
  });

  it('refuses a text file declared as a PNG with the spec message', async () => {
    const person = await signedIn(server);
    const response = await putBytes(person.browser, '/api/me/picture', Buffer.from('just some text, not a picture'), {
      contentType: 'image/png',
    });
    expect(await errorOf(response)).toEqual({ status: 415, code: 'picture_type', message: pictureTypeMessage });
    expect((await me(person)).pictureUrl).toBeNull();
  });

  it('refuses a damaged JPEG', async () => {
    const person = await signedIn(server);
    const response = await putBytes(person.browser, '/api/me/picture', jpeg.subarray(0, jpeg.length / 2));
    expect(await errorOf(response)).toMatchObject({ status: 422, code: 'picture_unreadable' });
  });

  it('refuses more than 5120 KB with the spec message, by Content-Length and while streaming', async () => {
    const person = await signedIn(server);
    const oversized = Buffer.concat([jpeg, Buffer.alloc(pictureMaxBytes + 1 - jpeg.length)]);
    const declared = await putBytes(person.browser, '/api/me/picture', oversized);
    expect(await errorOf(declared)).toEqual({ status: 413, code: 'picture_too_big', message: pictureTooBigMessage });
    // No Content-Length (chunked): refused once the stream passes the limit.
    const streamed = await putBytes(person.browser, '/api/me/picture', oversized, { chunked: true });
    expect(await errorOf(streamed)).toEqual({ status: 413, code: 'picture_too_big', message: pictureTooBigMessage });
    // Exactly the limit is allowed (a JPEG ends at its end-of-image marker; the padding is ignored).
    const atLimit = await putBytes(person.browser, '/api/me/picture', oversized.subarray(0, pictureMaxBytes), {
      chunked: true,
    });
    expect(atLimit.status).toBe(200);
  });

  it('replaces and removes the picture, and its files with it', async () => {
    const person = await signedIn(server);
    const first = await json<{ pictureUrl: string }>(await putBytes(person.browser, '/api/me/picture', jpeg));
    const firstFiles = storedPictures('eu');
    const second = await json<{ pictureUrl: string }>(await putBytes(person.browser, '/api/me/picture', png));
    expect(versionOf(second.pictureUrl)).not.toBe(versionOf(first.pictureUrl));
    // The old URL's version is gone: it now revalidates (no-cache), and serves the new picture.
    const old = await person.browser.get(first.pictureUrl);
    expect(old.headers.get('cache-control')).toBe('private, no-cache');
    expect(old.headers.get('content-type')).toBe('image/png');
    expect(storedPictures('eu').length).toBe(firstFiles.length);

    const removed = await send(person.browser, 'DELETE', '/api/me/picture');
    expect(await json(removed)).toEqual({ pictureUrl: null });
    expect((await me(person)).pictureUrl).toBeNull();
    expect((await person.browser.get(`/api/users/${person.id}/picture`)).status).toBe(404);
    expect(storedPictures('eu').length).toBe(firstFiles.length - 2);
    // Removing again is fine.
    expect((await send(person.browser, 'DELETE', '/api/me/picture')).status).toBe(200);
  });

  it('needs a signed-in user and a same-origin request', async () => {
    const anonymous = new TestBrowser(server.origin);
    const person = await signedIn(server);
    expect((await putBytes(anonymous, '/api/me/picture', jpeg)).status).toBe(401);
    expect((await send(anonymous, 'DELETE', '/api/me/picture')).status).toBe(401);
    expect((await anonymous.get(`/api/users/${person.id}/picture`)).status).toBe(401);
    const crossSite = await putBytes(person.browser, '/api/me/picture', jpeg, {
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await me(person)).pictureUrl).toBeNull();
  });

  it('is seen by the people who work with its owner, and by nobody else (404)', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const member = await joinedMember(server, admin, deviceId, 'member');
    const pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
    const stranger = await signedIn(server);
    for (const person of [admin, member, pending])
      expect((await putBytes(person.browser, '/api/me/picture', png)).status).toBe(200);

    const status = async (viewer: Person, owner: Person) =>
      (await viewer.browser.get(`/api/users/${owner.id}/picture?size=thumb`)).status;
    expect(await status(member, admin)).toBe(200);
    expect(await status(admin, member)).toBe(200);
    // The admin sees who waits for approval; the waiting person sees nobody yet.
    expect(await status(admin, pending)).toBe(200);
    expect(await status(pending, admin)).toBe(404);
    expect(await status(pending, pending)).toBe(200);
    expect(await status(stranger, admin)).toBe(404);
    expect((await stranger.browser.get('/api/users/not-a-uuid/picture')).status).toBe(400);
  });
});

describe('device picture', () => {
  let admin: Person;
  let member: Person;
  let guest: Person;
  let pending: Person;
  let otherAdmin: Person;
  let deviceId: string;
  beforeAll(async () => {
    admin = await signedIn(server);
    deviceId = (await createWorkspace(admin)).deviceId;
    member = await joinedMember(server, admin, deviceId, 'member');
    guest = await joinedMember(server, admin, deviceId, 'guest');
    pending = await joinedMember(server, admin, deviceId, 'member', { approve: false });
    otherAdmin = await signedIn(server);
    await createWorkspace(otherAdmin);
  }, 120_000);

  it('is set by an admin and shown in the workspace list', async () => {
    const response = await putBytes(admin.browser, `/api/devices/${deviceId}/picture`, jpeg);
    expect(response.status).toBe(200);
    const { pictureUrl } = await json<{ pictureUrl: string }>(response);
    expect(pictureUrl).toBe(`/api/devices/${deviceId}/picture?v=${versionOf(pictureUrl)}`);
    const list = await json<{ items: { deviceId: string; devicePicture: string | null }[] }>(
      await member.browser.get('/api/devices'),
    );
    expect(list.items.find((item) => item.deviceId === deviceId)?.devicePicture).toBe(pictureUrl);
    const detail = await json<{ devicePicture: string | null }>(await admin.browser.get(`/api/devices/${deviceId}`));
    expect(detail.devicePicture).toBe(pictureUrl);
  });

  it('answers each principal: read by members, changed by admins, 404 for other workspaces', async () => {
    expect((await putBytes(admin.browser, `/api/devices/${deviceId}/picture`, png)).status).toBe(200);
    const anonymous = new TestBrowser(server.origin);
    const read = async (browser: TestBrowser) =>
      (await browser.get(`/api/devices/${deviceId}/picture?size=thumb`)).status;
    expect({
      anonymous: await read(anonymous),
      otherAdmin: await read(otherAdmin.browser),
      pending: await read(pending.browser),
      guest: await read(guest.browser),
      member: await read(member.browser),
      admin: await read(admin.browser),
    }).toEqual({ anonymous: 401, otherAdmin: 404, pending: 200, guest: 200, member: 200, admin: 200 });

    const change = async (browser: TestBrowser) =>
      (await putBytes(browser, `/api/devices/${deviceId}/picture`, png)).status;
    expect({
      anonymous: await change(anonymous),
      otherAdmin: await change(otherAdmin.browser),
      pending: await change(pending.browser),
      guest: await change(guest.browser),
      member: await change(member.browser),
    }).toEqual({ anonymous: 401, otherAdmin: 404, pending: 403, guest: 403, member: 403 });
    const refused = await errorOf(await putBytes(member.browser, `/api/devices/${deviceId}/picture`, png));
    expect(refused.code).toBe('forbidden');
    expect(refused.message).not.toBe(noPermissionMessage);

    const remove = async (browser: TestBrowser) =>
      (await send(browser, 'DELETE', `/api/devices/${deviceId}/picture`)).status;
    expect({
      anonymous: await remove(anonymous),
      otherAdmin: await remove(otherAdmin.browser),
      guest: await remove(guest.browser),
      member: await remove(member.browser),
    }).toEqual({ anonymous: 401, otherAdmin: 404, guest: 403, member: 403 });
    expect(await read(member.browser)).toBe(200);
    expect((await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/picture`)).status).toBe(200);
    expect(await read(member.browser)).toBe(404);
    const list = await json<{ items: { deviceId: string; devicePicture: string | null }[] }>(
      await member.browser.get('/api/devices'),
    );
    expect(list.items.find((item) => item.deviceId === deviceId)?.devicePicture).toBeNull();
    expect((await admin.browser.get('/api/devices/00000000-0000-4000-8000-000000000000/picture')).status).toBe(404);
  });

  it('refuses what is not a picture with the spec messages', async () => {
    const wrong = await putBytes(admin.browser, `/api/devices/${deviceId}/picture`, Buffer.from('%PDF-1.7'));
    expect(await errorOf(wrong)).toMatchObject({ status: 415, message: pictureTypeMessage });
    const big = await putBytes(admin.browser, `/api/devices/${deviceId}/picture`, Buffer.alloc(pictureMaxBytes + 10));
    expect(await errorOf(big)).toMatchObject({ status: 413, message: pictureTooBigMessage });
  });

  it('is kept in the data region of its workspace', async () => {
    const us = await createWorkspace(admin, {
      company: {
        companyName: 'Cardio Inc',
        country: 'US',
        state: 'CA',
        streetAddress: '1 Main',
        city: 'SF',
        zipCode: '94105',
      },
    });
    expect(us.dataRegion).toBe('us');
    const before = storedPictures('us').length;
    expect((await putBytes(admin.browser, `/api/devices/${us.deviceId}/picture`, png)).status).toBe(200);
    expect(storedPictures('us').length).toBe(before + 2);
    expect((await admin.browser.get(`/api/devices/${us.deviceId}/picture`)).status).toBe(200);
  });

  it('moves to the new data region when the workspace changes its region', async () => {
    const eu = await createWorkspace(admin);
    expect(eu.dataRegion).toBe('eu');
    const uploaded = await putBytes(admin.browser, `/api/devices/${eu.deviceId}/picture`, png);
    const { pictureUrl } = await json<{ pictureUrl: string }>(uploaded);
    const euBefore = storedPictures('eu');
    const usBefore = storedPictures('us');
    const original = await (await admin.browser.get(pictureUrl)).arrayBuffer();

    const changed = await send(admin.browser, 'PATCH', `/api/devices/${eu.deviceId}`, { dataRegion: 'us' });
    expect(changed.status).toBe(200);
    expect(await json(changed)).toMatchObject({ dataRegion: 'us' });
    // Both files (picture and thumbnail) left the EU area and are in the US one, under the same names.
    const moved = euBefore.filter((name) => !storedPictures('eu').includes(name));
    expect(moved).toHaveLength(2);
    expect(
      storedPictures('us')
        .filter((name) => !usBefore.includes(name))
        .sort(),
    ).toEqual(moved.sort());
    // The same picture under the same URL.
    const served = await admin.browser.get(pictureUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(original))).toBe(true);
    expect((await admin.browser.get(`${pictureUrl.replace(/\?.*/, '')}?size=thumb`)).status).toBe(200);

    // Saving the region again changes nothing; back to the EU moves it back.
    expect((await send(admin.browser, 'PATCH', `/api/devices/${eu.deviceId}`, { dataRegion: 'us' })).status).toBe(200);
    expect(storedPictures('us').filter((name) => moved.includes(name))).toHaveLength(2);
    expect((await send(admin.browser, 'PATCH', `/api/devices/${eu.deviceId}`, { dataRegion: 'eu' })).status).toBe(200);
    expect(storedPictures('eu').filter((name) => moved.includes(name))).toHaveLength(2);
    expect(storedPictures('us').filter((name) => moved.includes(name))).toHaveLength(0);
    expect((await admin.browser.get(pictureUrl)).status).toBe(200);
  });
});

describe('onboarding device picture', () => {
  it('is uploaded before the workspace exists and becomes its device picture on completion', async () => {
    const person = await signedIn(server);
    expect(
      (await json<{ devicePicture: string | null }>(await person.browser.get('/api/onboarding'))).devicePicture,
    ).toBeNull();
    expect((await person.browser.get('/api/onboarding/picture')).status).toBe(404);

    const uploaded = await json<{ pictureUrl: string }>(
      await putBytes(person.browser, '/api/onboarding/picture', jpeg),
    );
    expect(uploaded.pictureUrl).toBe(`/api/onboarding/picture?v=${versionOf(uploaded.pictureUrl)}`);
    const onboarding = await json<{ devicePicture: string | null }>(await person.browser.get('/api/onboarding'));
    expect(onboarding.devicePicture).toBe(uploaded.pictureUrl);
    expect((await person.browser.get(`${uploaded.pictureUrl}&size=thumb`)).status).toBe(200);
    // Nobody else sees it (it is the caller's own, by definition of the URL).
    const other = await signedIn(server);
    expect((await other.browser.get('/api/onboarding/picture')).status).toBe(404);

    // A US company: the picture follows the workspace to the US region.
    const usBefore = storedPictures('us').length;
    const body = workspaceBody({
      company: {
        companyName: 'Cardio Inc',
        country: 'US',
        state: 'NY',
        streetAddress: '5 Av',
        city: 'NYC',
        zipCode: '10001',
      },
    });
    const steps = [
      { stepActive: 2, bodyPart: 'heart_and_thorax' },
      { stepActive: 3, developmentPhase: body.developmentStages },
      { stepActive: 4, deviceInfo: body.deviceInfo },
      { stepActive: 5, yourCompany: body.company },
    ];
    let state = {};
    for (const step of steps) {
      state = { ...state, ...step };
      expect((await send(person.browser, 'PUT', '/api/onboarding', state)).status).toBe(200);
    }
    const completed = await person.browser.postJson('/api/onboarding/complete', {});
    expect(completed.status).toBe(201);
    const { device } = await json<{ device: { deviceId: string; devicePicture: string | null; dataRegion: string } }>(
      completed,
    );
    expect(device.dataRegion).toBe('us');
    expect(device.devicePicture).toBe(`/api/devices/${device.deviceId}/picture?v=${versionOf(uploaded.pictureUrl)}`);
    expect(storedPictures('us').length).toBe(usBefore + 2);
    const picture = await person.browser.get(device.devicePicture!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect((await person.browser.get('/api/onboarding/picture')).status).toBe(404);
    expect(
      (await json<{ devicePicture: string | null }>(await person.browser.get('/api/onboarding'))).devicePicture,
    ).toBeNull();
  });

  it('can be replaced and removed, and is refused like any picture', async () => {
    const person = await signedIn(server);
    expect((await putBytes(person.browser, '/api/onboarding/picture', jpeg)).status).toBe(200);
    expect((await putBytes(person.browser, '/api/onboarding/picture', png)).status).toBe(200);
    expect((await person.browser.get('/api/onboarding/picture')).headers.get('content-type')).toBe('image/png');
    const wrong = await putBytes(person.browser, '/api/onboarding/picture', Buffer.from('GIF89a.....'));
    expect(await errorOf(wrong)).toMatchObject({ status: 415, message: pictureTypeMessage });
    expect(await json(await send(person.browser, 'DELETE', '/api/onboarding/picture'))).toEqual({ pictureUrl: null });
    expect((await person.browser.get('/api/onboarding/picture')).status).toBe(404);
    const anonymous = new TestBrowser(server.origin);
    expect((await putBytes(anonymous, '/api/onboarding/picture', png)).status).toBe(401);
    expect((await anonymous.get('/api/onboarding/picture')).status).toBe(401);
  });
});
