import {
  deviceVersionFailedMessage,
  deviceVersionNameTakenMessage,
  deviceVersionProcessingDeleteMessage,
  type DeviceVersion,
  type DeviceVersionList,
  type DeviceVersionNameAvailability,
  type NotificationList,
  type ProjectStats,
} from '@insilico/contracts';
import { validateStl } from '@insilico/mesh';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceVersionFiles, roomPlacements, storedFiles } from '../../db/schema';
import { insertSsmRoom } from '../../../test/factories/room-rows';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import {
  createWorkspace,
  errorOf,
  joinedMember,
  json,
  send,
  signedIn,
  type Person,
} from '../../../test/fixtures/workspace.fixtures';
import { uploadFile } from '../../../test/fixtures/upload.fixtures';
import { insertDeviceVersion, insertProject } from '../../../test/factories/project-rows';
import { createVersion, postVersion, processed, uniqueName } from '../../../test/fixtures/device-version.fixtures';
import { stlCorpus } from '../../../test/fixtures/stl.fixtures';

let server: TestServer;
let admin: Person;
let deviceId = '';

beforeAll(async () => {
  ({ server, admin, deviceId } = await projectWorld());
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const corpus = stlCorpus();
const base = () => `/api/devices/${deviceId}/device-versions`;

async function processedVersion(files: readonly (readonly [string, Uint8Array])[], body = {}, who = admin) {
  const created = await createVersion(who.browser, deviceId, files, body);
  expect(created.status).toBe('processing');
  return processed(who.browser, deviceId, created.id);
}

describe('the STL corpus through upload and processing', () => {
  const accepted = {
    'valid binary': ['cube.stl', corpus.binary, 'binary'],
    'valid ASCII': ['cube-ascii.STL', corpus.ascii, 'ascii'],
    'binary whose header begins with "solid"': ['solid-header.stl', corpus.solidHeader, 'binary'],
  } as const;
  for (const [label, [fileName, bytes, format]] of Object.entries(accepted)) {
    it(`${label}: ready with the cube's metrics, a preview and the original file to download`, async () => {
      const version = await processedVersion([[fileName, bytes]]);
      expect(version.status).toBe('ready');
      expect(version.error).toBeNull();
      expect(version.progress).toBe(1);
      const [file] = version.files;
      expect(file).toMatchObject({
        fileName,
        bytes: bytes.length,
        status: 'valid',
        format,
        refusal: null,
        findings: [],
      });
      expect(file!.metrics).toEqual({
        triangleCount: 12,
        vertexCount: 8,
        boundingBox: { min: [0, 0, 0], max: [10, 10, 10], size: [10, 10, 10] },
        surfaceArea_mm2: 600,
        volume_mm3: 1000,
        watertight: true,
        boundaryEdges: 0,
        nonManifoldEdges: 0,
        degenerateTriangles: 0,
        orientationFlips: 0,
      });
      const preview = await admin.browser.get(file!.previewUrl!);
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toBe('image/png');
      expect([...new Uint8Array(await preview.arrayBuffer()).subarray(0, 8)]).toEqual([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
      ]);
      const model = await admin.browser.get(file!.modelUrl!);
      expect(model.status).toBe(200);
      expect(model.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(fileName)}`);
      expect(model.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(new Uint8Array(await model.arrayBuffer())).toEqual(bytes);
    });
  }

  it('zero-area triangles and an open mesh are accepted with findings (a stent is open by design)', async () => {
    const zero = await processedVersion([['slivers.stl', corpus.zeroArea]]);
    expect(zero.status).toBe('ready');
    expect(zero.files[0]!.metrics).toMatchObject({ triangleCount: 13, degenerateTriangles: 1 });
    expect(zero.files[0]!.findings.map((f) => f.code)).toEqual(['degenerate-triangles']);

    const open = await processedVersion([['open.stl', corpus.open]]);
    expect(open.status).toBe('ready');
    expect(open.files[0]!.metrics).toMatchObject({ watertight: false, volume_mm3: null, boundaryEdges: 3 });
    expect(open.files[0]!.findings.map((f) => f.code)).toEqual(['open']);
  });

  const refused = {
    truncated: ['truncated', corpus.truncated],
    'triangle count larger than the file': ['count-exceeds-file', corpus.countBeyondFile],
    'NaN vertex': ['non-finite-vertex', corpus.nan],
    'empty file': ['empty', corpus.empty],
    'header claiming 2^32−1 triangles': [null, corpus.maxCount],
  } as const;
  for (const [label, [code, bytes]] of Object.entries(refused)) {
    it(`${label}: failed with the spec message and the file's own reason`, async () => {
      const expected = validateStl(bytes);
      if (expected.ok) throw new Error('the corpus file should be refused');
      if (code) expect(expected.refusal.code).toBe(code);
      const version = await processedVersion([['broken.stl', bytes]]);
      expect(version.status).toBe('failed');
      expect(version.error).toBe(deviceVersionFailedMessage);
      expect(version.files[0]).toMatchObject({
        status: 'refused',
        metrics: null,
        previewUrl: null,
        refusal: { code: expected.refusal.code, message: expected.refusal.reason },
      });
    });
  }

  it('a version with one good and one broken file fails, keeps the good file measured, and says why', async () => {
    const version = await processedVersion([
      ['good.stl', corpus.binary],
      ['bad.stl', corpus.nan],
    ]);
    expect(version.status).toBe('failed');
    expect(version.files.map((f) => [f.position, f.fileName, f.status])).toEqual([
      [1, 'good.stl', 'valid'],
      [2, 'bad.stl', 'refused'],
    ]);
    expect(version.files[0]!.metrics?.volume_mm3).toBe(1000);
    expect(version.files[1]!.refusal?.message).toMatch(/not a finite number/);
    const notes = await json<NotificationList>(await admin.browser.get('/api/notifications?limit=100'));
    const note = notes.items.find((n) => n.link?.includes(version.id));
    expect(note).toMatchObject({
      kind: 'device-version.failed',
      title: `Device version ${version.name} could not be processed`,
      body: deviceVersionFailedMessage,
    });
  });
});

describe('names', () => {
  it('are unique per workspace in any letter case, with the spec message; the form can ask first', async () => {
    const name = uniqueName('Valve Gen');
    const created = await createVersion(admin.browser, deviceId, [['a.stl', corpus.binary]], { name });
    const check = (n: string) =>
      admin.browser
        .get(`${base()}/name-available?name=${encodeURIComponent(n)}`)
        .then((r) => json<DeviceVersionNameAvailability>(r));
    expect(await check(name.toUpperCase())).toEqual({ available: false, message: deviceVersionNameTakenMessage });
    expect(await check(`${name} b`)).toEqual({ available: true, message: null });
    const duplicate = await postVersion(admin.browser, deviceId, [['b.stl', corpus.binary]], {
      name: `  ${name.toLowerCase()} `,
    });
    expect(await errorOf(duplicate)).toEqual({
      status: 409,
      code: 'device_version_name_taken',
      message: deviceVersionNameTakenMessage,
    });
    await processed(admin.browser, deviceId, created.id);
    // Another workspace may use the same name.
    const other = await signedIn(server);
    const otherDevice = (await createWorkspace(other)).deviceId;
    expect((await postVersion(other.browser, otherDevice, [['a.stl', corpus.binary]], { name })).status).toBe(201);
  });
});

describe('uploads a version may take', () => {
  it('refuses unfinished, foreign, reused and missing uploads, and an empty list', async () => {
    const unfinished = await admin.browser.request(`/api/devices/${deviceId}/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '100', 'upload-metadata': 'filename YS5zdGw=' },
    });
    const unfinishedId = unfinished.headers.get('location')!.split('/').pop();
    const create = (uploadIds: unknown[], who = admin) =>
      who.browser.postJson(base(), { name: uniqueName(), uploadIds });
    expect((await errorOf(await create([unfinishedId]))).code).toBe('upload_unfinished');

    const member = await joinedMember(server, admin, deviceId, 'member');
    const membersUpload = await uploadFile(member.browser, deviceId, 'm.stl', corpus.binary);
    expect((await create([membersUpload])).status).toBe(404);

    const used = await uploadFile(admin.browser, deviceId, 'u.stl', corpus.binary);
    const first = await json<DeviceVersion>(await create([used]));
    expect((await create([used])).status).toBe(404);
    expect((await create([crypto.randomUUID()])).status).toBe(404);
    const empty = await create([]);
    expect(await errorOf(empty)).toMatchObject({ status: 400 });
    await processed(admin.browser, deviceId, first.id);
  });
});

describe('list, search and paging', () => {
  it('lists newest first with total, finds by name and filters by status', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const ids: string[] = [];
    for (const i of [1, 2, 3]) {
      const v = await createVersion(admin.browser, deviceId, [['p.stl', i === 2 ? corpus.empty : corpus.binary]], {
        name: `Listed ${tag} ${i}`,
      });
      ids.push(v.id);
    }
    for (const id of ids) await processed(admin.browser, deviceId, id);
    const page = await json<DeviceVersionList>(
      await admin.browser.get(`${base()}?search=${encodeURIComponent(`listed ${tag}`)}&pageSize=10&page=1`),
    );
    expect(page.total).toBe(3);
    expect(page.items.map((v) => v.name)).toEqual([`Listed ${tag} 3`, `Listed ${tag} 2`, `Listed ${tag} 1`]);
    expect(page.items[0]!.createdBy?.id).toBe(admin.id);
    const second = await json<DeviceVersionList>(
      await admin.browser.get(`${base()}?search=${encodeURIComponent(`Listed ${tag}`)}&pageSize=10&page=2`),
    );
    expect(second).toMatchObject({ items: [], total: 3, page: 2 });
    const ready = await json<DeviceVersionList>(
      await admin.browser.get(`${base()}?search=${encodeURIComponent(`Listed ${tag}`)}&status=ready,processing`),
    );
    expect(ready.items.map((v) => v.name)).toEqual([`Listed ${tag} 3`, `Listed ${tag} 1`]);
    expect((await admin.browser.get(`${base()}?status=bogus`)).status).toBe(400);
    expect((await admin.browser.get(`${base()}?search=%25`)).status).toBe(200);
  });
});

describe('projects', () => {
  it('a new version targeted at a project joins it once ready, and its team hears of it', async () => {
    const member = await joinedMember(server, admin, deviceId, 'member');
    const projectId = await insertProject(server, { deviceId, team: [admin.id, member.id] });
    const version = await processedVersion([['t.stl', corpus.binary]], { targetProjectId: projectId });
    expect(version.status).toBe('ready');
    expect(version.projects.map((p) => p.id)).toEqual([projectId]);
    const notes = await json<NotificationList>(await member.browser.get('/api/notifications?limit=50'));
    expect(notes.items.find((n) => n.link?.includes(version.id))).toMatchObject({
      kind: 'device-version.ready',
      title: `Device version ${version.name} is ready`,
      link: `/device-versions?version=${version.id}&device=${deviceId}`,
    });
  });

  it('adds a ready version to a project and removes it; a failed one is refused; off-team members may not', async () => {
    const projectId = await insertProject(server, { deviceId, team: [admin.id] });
    const ready = await processedVersion([['r.stl', corpus.binary]]);
    const failed = await processedVersion([['f.stl', corpus.empty]]);
    const path = `/api/devices/${deviceId}/projects/${projectId}/device-versions`;
    const added = await admin.browser.postJson(path, { versionId: ready.id });
    expect(added.status).toBe(200);
    expect((await json<DeviceVersion>(added)).projects.map((p) => p.id)).toContain(projectId);
    expect((await errorOf(await admin.browser.postJson(path, { versionId: failed.id }))).status).toBe(409);
    const member = await joinedMember(server, admin, deviceId, 'member');
    expect((await member.browser.postJson(path, { versionId: ready.id })).status).toBe(403);
    expect((await send(admin.browser, 'DELETE', `${path}/${ready.id}`)).status).toBe(204);
    expect((await send(admin.browser, 'DELETE', `${path}/${ready.id}`)).status).toBe(404);
  });

  it('a guest reads only the versions of projects they are on', async () => {
    const guest = await joinedMember(server, admin, deviceId, 'guest');
    const projectId = await insertProject(server, { deviceId, team: [admin.id, guest.id] });
    const theirs = await processedVersion([['g.stl', corpus.binary]], { targetProjectId: projectId });
    const notTheirs = await processedVersion([['n.stl', corpus.binary]]);
    const list = await json<DeviceVersionList>(await guest.browser.get(`${base()}?pageSize=100`));
    expect(list.items.map((v) => v.id)).toEqual([theirs.id]);
    expect((await guest.browser.get(`${base()}/${notTheirs.id}`)).status).toBe(404);
    expect((await guest.browser.get(notTheirs.files[0]!.modelUrl!)).status).toBe(404);
    expect((await guest.browser.get(theirs.files[0]!.modelUrl!)).status).toBe(200);
  });
});

/** Where a version's model and preview bytes are kept (to see that deleting removes them from storage). */
async function storedBytesOf(versionId: string) {
  const orm = server.context.db.orm;
  const files = await orm
    .select({ model: deviceVersionFiles.fileId, preview: deviceVersionFiles.previewFileId })
    .from(deviceVersionFiles)
    .where(eq(deviceVersionFiles.versionId, versionId));
  const ids = files.flatMap((file) => [file.model, file.preview]).filter((id): id is string => id !== null);
  return orm
    .select({ region: storedFiles.region, storageKey: storedFiles.storageKey })
    .from(storedFiles)
    .where(inArray(storedFiles.id, ids));
}

async function inStorage(stored: { region: string; storageKey: string }[]): Promise<boolean[]> {
  return Promise.all(
    stored.map(async (file) => {
      const opened = await server.context.blobs.open(file.region as 'eu' | 'us', file.storageKey);
      opened?.stream.destroy();
      return opened !== null;
    }),
  );
}

/** A room of the project (on an SSM row, which needs no cohort) with the version placed in it. */
async function placeInRoom(projectId: string, versionId: string, name: string): Promise<string> {
  const orm = server.context.db.orm;
  const roomId = await insertSsmRoom(server, { deviceId, projectId, name });
  await orm.insert(roomPlacements).values({
    roomId,
    versionId,
    transform: { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] },
  });
  return roomId;
}

describe('deleting a version', () => {
  it('a failed version is deleted with its stored file; it is gone from the list and the chosen ids', async () => {
    const failed = await processedVersion([['broken.stl', corpus.empty]]);
    expect(failed.status).toBe('failed');
    const stored = await storedBytesOf(failed.id);
    expect(await inStorage(stored)).toEqual([true]);
    const byIds = `${base()}?ids=${failed.id}&pageSize=10`;
    expect((await json<DeviceVersionList>(await admin.browser.get(byIds))).items.map((v) => v.id)).toEqual([failed.id]);
    expect((await send(admin.browser, 'DELETE', `${base()}/${failed.id}`)).status).toBe(204);
    expect((await admin.browser.get(`${base()}/${failed.id}`)).status).toBe(404);
    expect(await json<DeviceVersionList>(await admin.browser.get(byIds))).toMatchObject({ items: [], total: 0 });
    expect(await inStorage(stored)).toEqual([false]);
    expect((await send(admin.browser, 'DELETE', `${base()}/${failed.id}`)).status).toBe(404);
  });

  it('a ready version placed in a room is refused with the rooms named; once out of the room it goes, preview too', async () => {
    const projectName = uniqueName('Deletion');
    const projectId = await insertProject(server, { deviceId, team: [admin.id], name: projectName });
    const ready = await processedVersion([['placed.stl', corpus.binary]]);
    expect(ready, JSON.stringify(ready.files)).toMatchObject({ status: 'ready' });
    const added = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/device-versions`, {
      versionId: ready.id,
    });
    expect(added.status, await added.clone().text()).toBe(200);
    const roomId = await placeInRoom(projectId, ready.id, 'SYN-000001 room');
    expect(await errorOf(await send(admin.browser, 'DELETE', `${base()}/${ready.id}`))).toMatchObject({
      status: 409,
      code: 'device_version_in_rooms',
      message: `This device version is placed in a room: SYN-000001 room (${projectName}). Remove it from that room before deleting the version.`,
    });
    const stored = await storedBytesOf(ready.id);
    expect(await inStorage(stored)).toEqual([true, true]);

    await server.context.db.orm.delete(roomPlacements).where(eq(roomPlacements.roomId, roomId));
    expect((await send(admin.browser, 'DELETE', `${base()}/${ready.id}`)).status).toBe(204);
    expect(await inStorage(stored)).toEqual([false, false]);
    const stats = await json<ProjectStats>(
      await admin.browser.get(`/api/devices/${deviceId}/projects/${projectId}/stats`),
    );
    expect(stats.deviceVersions.items).toEqual([]);
  });

  it('is refused while processing, for guests, for another workspace, and for a project the caller is not on', async () => {
    const processing = await insertDeviceVersion(server, deviceId, { status: 'processing' });
    expect(await errorOf(await send(admin.browser, 'DELETE', `${base()}/${processing}`))).toMatchObject({
      status: 409,
      code: 'device_version_processing',
      message: deviceVersionProcessingDeleteMessage,
    });
    const ready = await insertDeviceVersion(server, deviceId, { status: 'ready' });
    const guest = await joinedMember(server, admin, deviceId, 'guest');
    expect((await send(guest.browser, 'DELETE', `${base()}/${ready}`)).status).toBe(403);
    const stranger = await signedIn(server);
    expect((await send(stranger.browser, 'DELETE', `${base()}/${ready}`)).status).toBe(404);
    const member = await joinedMember(server, admin, deviceId, 'member');
    await insertProject(server, { deviceId, team: [admin.id], versionIds: [ready] });
    expect((await send(member.browser, 'DELETE', `${base()}/${ready}`)).status).toBe(403);
    expect((await send(admin.browser, 'DELETE', `${base()}/${ready}`)).status).toBe(204);
    const own = await insertDeviceVersion(server, deviceId, { status: 'failed' });
    expect((await send(member.browser, 'DELETE', `${base()}/${own}`)).status).toBe(204);
    expect((await admin.browser.get(`${base()}?ids=not-an-id`)).status).toBe(400);
  });
});
