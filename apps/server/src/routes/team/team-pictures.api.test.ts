import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putBytes, testPicture } from '../../../test/helpers/pictures';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { createWorkspace, invite, joinedMember, json, signedIn } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Member {
  userId: string | null;
  info: string;
  pictureUrl: string | null;
}

describe('team avatars', () => {
  it('lists each member’s picture, which the team may load; initials (null) otherwise', async () => {
    const admin = await signedIn(server);
    const { deviceId } = await createWorkspace(admin);
    const member = await joinedMember(server, admin, deviceId, 'member');
    expect((await putBytes(member.browser, '/api/me/picture', await testPicture('png', 64, 48))).status).toBe(200);
    expect((await invite(admin, deviceId, 'not.yet@example.com')).status).toBe(201);

    const team = await json<{ items: Member[] }>(await admin.browser.get(`/api/devices/${deviceId}/team`));
    const byEmail = new Map(team.items.map((item) => [item.info, item]));
    expect(byEmail.get(admin.account.email)?.pictureUrl).toBeNull();
    expect(byEmail.get('not.yet@example.com')?.pictureUrl).toBeNull();
    const url = byEmail.get(member.account.email)?.pictureUrl;
    expect(url).toMatch(new RegExp(`^/api/users/${member.id}/picture\\?size=thumb&v=`));
    const picture = await admin.browser.get(url!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
  });
});
