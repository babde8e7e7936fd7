import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { directPartBytes, type DirectCompleted, type DirectUpload, type ImagingDataset } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/helpers/test-server';
import { deidentified, manifestEntry, zipOf } from '../../../test/fixtures/imaging.fixtures';
import { requireS3, tryStartTestS3, type TestS3 } from '../../../test/helpers/s3-server';
import { createUpload, metadataOf } from '../../../test/fixtures/upload.fixtures';
import { createVersion, processed } from '../../../test/fixtures/device-version.fixtures';
import { stlCorpus } from '../../../test/fixtures/stl.fixtures';
import { createWorkspace, errorOf, json, send, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';

// Object storage for real (issue 19 item 5): the server with STORAGE_DRIVER=s3 against an S3-compatible server
// started here from npm (s3rver). Skipped, saying why, only when that server cannot start.
let s3: TestS3 | string = 'not started';
let server: TestServer;
let admin: Person;
let euDevice = '';
let usDevice = '';
let client: S3Client;

beforeAll(async () => {
  s3 = await tryStartTestS3();
  if (typeof s3 === 'string') return;
  server = await startTestServer(s3.env);
  admin = await signedIn(server);
  euDevice = (await createWorkspace(admin)).deviceId;
  usDevice = (
    await createWorkspace(admin, {
      dataRegion: 'us',
      deviceInfo: { deviceName: 'Valve US', deviceType: 'valve_replacement' },
    })
  ).deviceId;
  client = new S3Client({
    region: 'eu-central-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: s3.credentials,
  });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (typeof s3 !== 'string') await s3.stop();
});

const needsS3 = (context: TestContext) => requireS3(context, s3);

const bytes = (n: number, seed = 1) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) out[i] = (i * 31 + seed * 7 + (i >> 13)) % 251;
  return out;
};

async function objectBytes(bucket: string, key: string): Promise<Uint8Array | null> {
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await answer.Body!.transformToByteArray();
  } catch {
    return null;
  }
}

async function keysUnder(bucket: string, prefix: string): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key!);
}

/** A tus-created upload of an imaging zip (no bytes sent); answers its id. */
async function createdImagingUpload(deviceId: string, length: number): Promise<string> {
  const created = await createUpload(admin.browser, deviceId, length, 'dataset.zip', {
    'upload-metadata': metadataOf({ filename: 'dataset.zip', purpose: 'imaging_dataset' }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return created.headers.get('location')!.split('/').pop()!;
}

const direct = (deviceId: string, uploadId: string) => `/api/devices/${deviceId}/uploads/${uploadId}/direct`;

/** What a browser does for one part: PUT the bytes to the presigned address, then report the part's ETag. */
async function sendPart(deviceId: string, uploadId: string, url: string, partNumber: number, body: Uint8Array) {
  const put = await fetch(url, { method: 'PUT', body });
  expect(put.status, await put.clone().text()).toBe(200);
  const etag = put.headers.get('etag')!;
  const reported = await admin.browser.request(`${direct(deviceId, uploadId)}/parts/${partNumber}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ etag, bytes: body.length }),
  });
  expect(reported.status, await reported.clone().text()).toBe(204);
}

const partOf = (data: Uint8Array, partNumber: number) =>
  data.subarray((partNumber - 1) * directPartBytes, Math.min(data.length, partNumber * directPartBytes));

describe('direct uploads into the region bucket', () => {
  it('sends a file in presigned parts, resumes after a break with the missing parts only, and completes it', async (context) => {
    const { buckets, endpoint } = needsS3(context);
    const data = bytes(2 * directPartBytes + 12_345);
    const uploadId = await createdImagingUpload(euDevice, data.length);

    let state = await json<DirectUpload>(await send(admin.browser, 'POST', direct(euDevice, uploadId)));
    expect(state.partSize).toBe(directPartBytes);
    expect(state.partCount).toBe(3);
    expect(state.received).toEqual([]);
    expect(state.urls.map((u) => u.partNumber)).toEqual([1, 2, 3]);
    expect(state.urls[0]!.url.startsWith(`${endpoint}/${buckets.eu}/uploads/${euDevice}/${uploadId}?`)).toBe(true);
    expect(new Date(state.urlsExpireAt).getTime()).toBeGreaterThan(Date.now());

    await sendPart(euDevice, uploadId, state.urls[0]!.url, 1, partOf(data, 1));
    // The break: part 2 reached storage but the tab closed before reporting it; part 3 was never sent.
    expect((await fetch(state.urls[1]!.url, { method: 'PUT', body: partOf(data, 2) })).status).toBe(200);

    // Completing early names the missing parts; nothing changes.
    const early = await send(admin.browser, 'POST', `${direct(euDevice, uploadId)}/complete`);
    expect(early.status).toBe(409);
    expect((await errorOf(early)).message).toMatch(/missing: 2, 3/);

    // A report of the wrong size is refused (the last part is the short one).
    const wrongSize = await admin.browser.request(`${direct(euDevice, uploadId)}/parts/3`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ etag: '"x"', bytes: directPartBytes }),
    });
    expect(wrongSize.status).toBe(400);
    expect((await errorOf(wrongSize)).message).toBe('This part must hold 12345 bytes.');

    // Resumed (a new page load): the server says part 1 is there and hands addresses for 2 and 3; 2 is re-sent.
    state = await json<DirectUpload>(await send(admin.browser, 'POST', direct(euDevice, uploadId)));
    expect(state.received).toEqual([1]);
    expect(state.urls.map((u) => u.partNumber)).toEqual([2, 3]);
    await sendPart(euDevice, uploadId, state.urls[0]!.url, 2, partOf(data, 2));
    await sendPart(euDevice, uploadId, state.urls[1]!.url, 3, partOf(data, 3));

    // tus PATCH is refused while the upload goes straight to storage.
    const patch = await admin.browser.request(`/api/devices/${euDevice}/uploads/${uploadId}`, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(1),
    });
    expect(patch.status).toBe(409);
    expect((await errorOf(patch)).code).toBe('direct_upload');

    const done = await send(admin.browser, 'POST', `${direct(euDevice, uploadId)}/complete`);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await json<DirectCompleted>(done)).toEqual({ offset: data.length, length: data.length });
    // The tus HEAD now tells the whole file is there, and the bucket of the EU region holds it byte for byte.
    const head = await admin.browser.request(`/api/devices/${euDevice}/uploads/${uploadId}`, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0' },
    });
    expect(head.headers.get('upload-offset')).toBe(String(data.length));
    const stored = await objectBytes(buckets.eu, `uploads/${euDevice}/${uploadId}`);
    expect(stored && Buffer.from(stored).equals(Buffer.from(data))).toBe(true);
    expect(await objectBytes(buckets.us, `uploads/${euDevice}/${uploadId}`)).toBeNull();
    const again = await send(admin.browser, 'POST', `${direct(euDevice, uploadId)}/complete`);
    expect(again.status).toBe(409);
  });

  it('makes an imaging dataset from a direct upload in the US bucket, which the server re-checks from there', async (context) => {
    const { buckets } = needsS3(context);
    const zip = await zipOf([['p1/s1/1.dcm', await deidentified(9)], manifestEntry()]);
    const uploadId = await createdImagingUpload(usDevice, zip.length);
    const state = await json<DirectUpload>(await send(admin.browser, 'POST', direct(usDevice, uploadId)));
    expect(state.urls[0]!.url).toContain(`/${buckets.us}/`);
    await sendPart(usDevice, uploadId, state.urls[0]!.url, 1, zip);
    expect((await send(admin.browser, 'POST', `${direct(usDevice, uploadId)}/complete`)).status).toBe(200);

    const created = await send(admin.browser, 'POST', `/api/devices/${usDevice}/imaging-datasets`, {
      uploadId,
      name: 'Direct CT',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = (await json<ImagingDataset>(created)).id;
    const until = Date.now() + 60_000;
    let dataset: ImagingDataset;
    for (;;) {
      dataset = await json<ImagingDataset>(await admin.browser.get(`/api/devices/${usDevice}/imaging-datasets/${id}`));
      if (dataset.status !== 'checking' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(dataset.findings).toEqual([]);
    expect(dataset.status).toBe('modelling');
    expect(dataset.region).toBe('us');
    expect(dataset.counts).toEqual({ patients: 1, studies: 1, series: 1, files: 1 });
  });

  it('removes a direct upload and its recorded parts on tus termination', async (context) => {
    const { buckets } = needsS3(context);
    const data = bytes(1000, 3);
    const uploadId = await createdImagingUpload(euDevice, data.length);
    const state = await json<DirectUpload>(await send(admin.browser, 'POST', direct(euDevice, uploadId)));
    await sendPart(euDevice, uploadId, state.urls[0]!.url, 1, data);
    const ended = await admin.browser.request(`/api/devices/${euDevice}/uploads/${uploadId}`, {
      method: 'DELETE',
      headers: { 'tus-resumable': '1.0.0' },
    });
    expect(ended.status).toBe(204);
    expect((await send(admin.browser, 'POST', direct(euDevice, uploadId))).status).toBe(404);
    expect(await objectBytes(buckets.eu, `uploads/${euDevice}/${uploadId}`)).toBeNull();
  });

  it('allows the bucket origin in the Content-Security-Policy connect-src', async (context) => {
    const { endpoint } = needsS3(context);
    const response = await admin.browser.get('/api/health');
    expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${endpoint}`);
  });
});

describe('tus uploads on object storage', () => {
  it('keeps PATCHes as segments, drops a crashed writer’s leftovers, and joins the file into one object', async (context) => {
    const { buckets } = needsS3(context);
    const data = bytes(9 * 1024 * 1024 + 77, 5);
    const created = await createUpload(admin.browser, euDevice, data.length, 'valve.stl');
    const location = created.headers.get('location')!;
    const key = `uploads/${euDevice}/${location.split('/').pop()!}`;
    const patch = (offset: number, body: Uint8Array) =>
      admin.browser.request(location, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body,
      });
    expect((await patch(0, data.subarray(0, 1000))).status).toBe(204);
    expect(await keysUnder(buckets.eu, `${key}.tus/`)).toEqual([`${key}.tus/${'0'.repeat(16)}`]);
    // A writer that crashed after storing a segment but before the offset was recorded left bytes at 1000.
    await client.send(
      new PutObjectCommand({
        Bucket: buckets.eu,
        Key: `${key}.tus/${'1000'.padStart(16, '0')}`,
        Body: new Uint8Array(50),
      }),
    );
    const rest = await patch(1000, data.subarray(1000));
    expect(rest.status, await rest.clone().text()).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(data.length));
    const stored = await objectBytes(buckets.eu, key);
    expect(stored && Buffer.from(stored).equals(Buffer.from(data))).toBe(true);
    expect(await keysUnder(buckets.eu, `${key}.tus/`)).toEqual([]);
  });

  it('processes a device version whose STL came by tus: the CPU pool reads it from the bucket, the model downloads', async (context) => {
    needsS3(context);
    const cube = stlCorpus().binary;
    const created = await createVersion(admin.browser, euDevice, [['cube.stl', cube]]);
    const version = await processed(admin.browser, euDevice, created.id);
    expect(version.status).toBe('ready');
    expect(version.files[0]!.metrics?.volume_mm3).toBe(1000);
    const model = await admin.browser.get(version.files[0]!.modelUrl!);
    expect(new Uint8Array(await model.arrayBuffer())).toEqual(cube);
    expect((await admin.browser.get(version.files[0]!.previewUrl!)).status).toBe(200);
  });
});
