import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { insertProject } from '../../../test/factories/project-rows';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { principals, send, type Person, type Principal } from '../../../test/fixtures/workspace.fixtures';
import { createUpload, patchUpload, tus, uploadFile } from '../../../test/fixtures/upload.fixtures';
import { createVersion, processed, uniqueName } from '../../../test/fixtures/device-version.fixtures';
import { stlCorpus } from '../../../test/fixtures/stl.fixtures';

/**
 * The permission table of uploads and device versions: every endpoint for every principal, each cell an explicit
 * allow (2xx) or deny (401 / 403 / 404). Admins and members upload and create; everybody in the workspace reads,
 * guests only the versions of projects they are on; adding to and removing from a project is project.manage
 * (on the team). An upload is its uploader's alone. See docs/decisions/device-versions.md.
 */
let server: TestServer;
let admin: Person;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let versionId = '';
let fileId = '';
let guestsVersionId = '';
let projectId = '';
const cube = stlCorpus().binary;

beforeAll(async () => {
  const world = await projectWorld({ people: principalPeople });
  ({ server, admin, deviceId } = world);
  browsers = browsersOf(world);
  const version = await processed(
    admin.browser,
    deviceId,
    (await createVersion(admin.browser, deviceId, [['a.stl', cube]])).id,
  );
  versionId = version.id;
  fileId = version.files[0]!.id;
  const guestsProject = await insertProject(server, { deviceId, team: [admin.id, world.people.guest.id] });
  guestsVersionId = (
    await processed(
      admin.browser,
      deviceId,
      (await createVersion(admin.browser, deviceId, [['g.stl', cube]], { targetProjectId: guestsProject })).id,
    )
  ).id;
  projectId = await insertProject(server, { deviceId, team: [admin.id] });
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser) => Promise<Response>;
const x = 401; // anonymous
const deny = { anonymous: x, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const base = () => `/api/devices/${deviceId}/device-versions`;
const uploads = () => `/api/devices/${deviceId}/uploads`;

/** A fresh upload of the admin's with 10 bytes announced. */
async function adminsUpload(): Promise<string> {
  return (await createUpload(admin.browser, deviceId, 10, 'x.stl')).headers.get('location')!;
}

/** An upload of the caller's own when they may upload, else an id that does not matter (refused first). */
async function ownUpload(browser: TestBrowser): Promise<string> {
  const created = await createUpload(browser, deviceId, cube.length, 'own.stl');
  if (created.status !== 201) return crypto.randomUUID();
  const location = created.headers.get('location')!;
  await patchUpload(browser, location, 0, cube);
  return location.split('/').pop()!;
}

const table: [string, Call, Record<Principal, number>][] = [
  [
    'OPTIONS uploads (capabilities, no secrets)',
    (b) => b.request(uploads(), { method: 'OPTIONS' }),
    {
      anonymous: 204,
      nonMember: 204,
      invited: 204,
      pending: 204,
      otherAdmin: 204,
      guest: 204,
      member: 204,
      admin: 204,
    },
  ],
  ['POST uploads', (b) => createUpload(b, deviceId, 10, 'p.stl'), { ...deny, guest: 403, member: 201, admin: 201 }],
  [
    'HEAD uploads/:id (the admin’s)',
    async (b) => b.request(await adminsUpload(), { method: 'HEAD', headers: tus }),
    { ...deny, guest: 403, member: 404, admin: 200 },
  ],
  [
    'PATCH uploads/:id (the admin’s)',
    async (b) => patchUpload(b, await adminsUpload(), 0, new Uint8Array(10)),
    { ...deny, guest: 403, member: 404, admin: 204 },
  ],
  [
    'DELETE uploads/:id (the admin’s)',
    async (b) => b.request(await adminsUpload(), { method: 'DELETE', headers: tus }),
    { ...deny, guest: 403, member: 404, admin: 204 },
  ],
  [
    'GET device-versions/name-available',
    (b) => b.get(`${base()}/name-available?name=Anything`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST device-versions',
    async (b) => b.postJson(base(), { name: uniqueName(), uploadIds: [await ownUpload(b)] }),
    { ...deny, guest: 403, member: 201, admin: 201 },
  ],
  ['GET device-versions', (b) => b.get(base()), { ...deny, guest: 200, member: 200, admin: 200 }],
  [
    'GET device-versions/:id (not on the guest’s project)',
    (b) => b.get(`${base()}/${versionId}`),
    { ...deny, guest: 404, member: 200, admin: 200 },
  ],
  [
    'GET device-versions/:id (on the guest’s project)',
    (b) => b.get(`${base()}/${guestsVersionId}`),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  [
    'GET …/files/:fileId/model',
    (b) => b.get(`${base()}/${versionId}/files/${fileId}/model`),
    { ...deny, guest: 404, member: 200, admin: 200 },
  ],
  [
    'GET …/files/:fileId/preview',
    (b) => b.get(`${base()}/${versionId}/files/${fileId}/preview`),
    { ...deny, guest: 404, member: 200, admin: 200 },
  ],
  [
    'POST projects/:id/device-versions (admin on the team)',
    (b) => b.postJson(`/api/devices/${deviceId}/projects/${projectId}/device-versions`, { versionId }),
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    'DELETE projects/:id/device-versions/:versionId',
    async (b) => {
      await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/device-versions`, { versionId });
      return send(b, 'DELETE', `/api/devices/${deviceId}/projects/${projectId}/device-versions/${versionId}`);
    },
    { ...deny, guest: 403, member: 403, admin: 204 },
  ],
];

describe('permission table of uploads and device versions', () => {
  for (const [name, call, expected] of table) {
    it(name, async () => {
      const actual = {} as Record<Principal, number>;
      for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
      expect(actual).toEqual(expected);
    });
  }

  it('a version created by a member is processed like the admin’s', async () => {
    const uploadId = await uploadFile(browsers.member, deviceId, 'm.stl', cube);
    const response = await browsers.member.postJson(base(), { name: uniqueName(), uploadIds: [uploadId] });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect((await processed(browsers.member, deviceId, id)).status).toBe('ready');
  });
});
