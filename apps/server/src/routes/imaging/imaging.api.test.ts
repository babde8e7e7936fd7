import {
  cohortNameTakenMessage,
  imagingDatasetNotInProjectMessage,
  imagingNameTooLongMessage,
  notZipMessage,
  type ImagingDataset,
  type ImagingDatasetList,
  type ImagingQueue,
  type NotificationList,
} from '@insilico/contracts';
import { Pseudonymiser } from '@insilico/dicom';
import { hostileCt, part10 } from '@insilico/dicom/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBinaryStl } from '@insilico/mesh';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { deidentified, manifest, manifestEntry, spec, zipOf } from '../../../test/fixtures/imaging.fixtures';
import { putBytes } from '../../../test/helpers/pictures';
import { deliverAndWait, storedModels } from '../../../test/fixtures/imaging-delivery.fixtures';
import { cube } from '../../../test/fixtures/stl.fixtures';
import type { TestBrowser } from '../../../test/helpers/browser';
import { createUpload, metadataOf, patchUpload } from '../../../test/fixtures/upload.fixtures';
import { orderBody, orderCohort } from '../../../test/fixtures/cohort.fixtures';
import { errorOf, json, send, type Person, type Principal } from '../../../test/fixtures/workspace.fixtures';

let server: TestServer;
let admin: Person;
let deviceId = '';
let browsers: Record<Principal, TestBrowser>;

beforeAll(async () => {
  const world = await projectWorld({ people: principalPeople });
  ({ server, admin, deviceId } = world);
  browsers = browsersOf(world);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

/** A tus upload of the zip with purpose imaging_dataset; `upTo` bytes sent (all by default). Answers the id. */
async function upload(browser: TestBrowser, bytes: Uint8Array, fileName = 'dataset.zip', upTo = bytes.length) {
  const created = await createUpload(browser, deviceId, bytes.length, fileName, {
    'upload-metadata': metadataOf({ filename: fileName, purpose: 'imaging_dataset' }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const location = created.headers.get('location')!;
  if (upTo > 0) expect((await patchUpload(browser, location, 0, bytes.subarray(0, upTo))).status).toBe(204);
  return location.split('/').pop()!;
}

const datasets = () => `/api/devices/${deviceId}/imaging-datasets`;

async function checked(browser: TestBrowser, id: string): Promise<ImagingDataset> {
  const until = Date.now() + 60_000;
  for (;;) {
    const dataset = await json<ImagingDataset>(await browser.get(`${datasets()}/${id}`));
    if (dataset.status !== 'checking') return dataset;
    if (Date.now() > until) throw new Error(`dataset ${id} still checking`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function createDataset(browser: TestBrowser, bytes: Uint8Array, name = `CT ${Date.now()}`) {
  const uploadId = await upload(browser, bytes);
  const response = await send(browser, 'POST', datasets(), { uploadId, name });
  expect(response.status, await response.clone().text()).toBe(201);
  return json<ImagingDataset>(response);
}

describe('imaging datasets: the de-identified zip through the upload and the server re-check', () => {
  it('accepts a de-identified zip: counts, manifest, modelling, the data region; the upload is taken over', async () => {
    const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
    const zip = await zipOf([
      ['P1/a.dcm', await deidentified(1, 1, pseudonymiser)],
      ['P1/b.dcm', await deidentified(1, 2, pseudonymiser)],
      ['P2/a.dcm', await deidentified(2, 1, pseudonymiser)],
      ['additional-files/1-notes.txt', new TextEncoder().encode('kept by the user')],
      manifestEntry(),
    ]);
    const uploadId = await upload(admin.browser, zip);
    const response = await send(admin.browser, 'POST', datasets(), {
      uploadId,
      name: '  Three CTs  ',
      note: 'arterial',
    });
    expect(response.status).toBe(201);
    const created = await json<ImagingDataset>(response);
    expect(created).toMatchObject({
      name: 'Three CTs',
      note: 'arterial',
      status: 'checking',
      bytes: zip.length,
      region: 'eu',
    });
    expect(created.uploadedBy?.id).toBe(admin.id);
    const done = await checked(admin.browser, created.id);
    expect(done.status).toBe('modelling');
    expect(done.counts).toEqual({ patients: 2, studies: 2, series: 2, files: 3 });
    expect(done.findings).toEqual([]);
    expect(done.manifest).toEqual(manifest);
    // The upload became the dataset: it cannot be used twice.
    const again = await send(admin.browser, 'POST', datasets(), { uploadId, name: 'again' });
    expect(again.status).toBe(404);
    const list = await json<ImagingDatasetList>(await admin.browser.get(datasets()));
    expect(list.items.map((d) => d.id)).toContain(created.id);
  });

  it('refuses a zip whose files still identify someone, naming each file and tag', async () => {
    const zip = await zipOf([
      ['ok.dcm', await deidentified(3)],
      ['raw/IM0001.dcm', part10(hostileCt(spec(4)))],
      manifestEntry(),
    ]);
    const done = await checked(admin.browser, (await createDataset(admin.browser, zip)).id);
    expect(done.status).toBe('refused');
    expect(done.counts).toBeNull();
    const raw = done.findings.filter((f) => f.file === 'raw/IM0001.dcm');
    expect(raw.map((f) => f.tag)).toEqual(
      expect.arrayContaining(['(0010,0010)', '(0010,0020)', '(0008,0018)', '(0009,1001)']),
    );
    expect(raw.find((f) => f.tag === '(0010,0030)')?.problem).toBe(
      "Patient's Birth Date has a value and must be empty",
    );
    expect(done.findings.some((f) => f.file === 'ok.dcm')).toBe(false);
  });

  it('refuses files that are not DICOM, unsafe paths, and a zip without its manifest', async () => {
    const notDicom = await checked(
      admin.browser,
      (
        await createDataset(
          admin.browser,
          await zipOf([['report.pdf', new Uint8Array([37, 80, 68, 70])], manifestEntry()]),
        )
      ).id,
    );
    expect(notDicom.findings).toEqual([
      { file: 'report.pdf', tag: null, problem: 'is not a DICOM file (only DICOM images are accepted)' },
    ]);
    const escaping = await checked(
      admin.browser,
      (await createDataset(admin.browser, await zipOf([['../up.dcm', await deidentified(5)], manifestEntry()]))).id,
    );
    expect(escaping.findings).toEqual([
      { file: '../up.dcm', tag: null, problem: 'has a path that leaves the dataset' },
    ]);
    const noManifest = await checked(
      admin.browser,
      (await createDataset(admin.browser, await zipOf([['a.dcm', await deidentified(6)]]))).id,
    );
    expect(noManifest.findings).toEqual([{ file: 'deidentification-manifest.json', tag: null, problem: 'is missing' }]);
    const notZip = await checked(
      admin.browser,
      (await createDataset(admin.browser, new TextEncoder().encode('plain text'))).id,
    );
    expect(notZip.findings).toEqual([{ file: '(the upload)', tag: null, problem: 'is not a readable .zip archive' }]);
  });

  it('validates the request: a .zip name for the upload, a finished upload of this purpose, a name', async () => {
    const notZip = await createUpload(admin.browser, deviceId, 10, 'dataset.tar', {
      'upload-metadata': metadataOf({ filename: 'dataset.tar', purpose: 'imaging_dataset' }),
    });
    expect(notZip.status).toBe(415);
    expect(await notZip.text()).toContain(notZipMessage);
    const half = await upload(admin.browser, new Uint8Array(100), 'half.zip', 50);
    expect(
      await errorOf(await send(admin.browser, 'POST', datasets(), { uploadId: half, name: 'half' })),
    ).toMatchObject({
      status: 409,
      code: 'upload_unfinished',
    });
    const stl = await createUpload(admin.browser, deviceId, 4, 'model.stl');
    const stlId = stl.headers.get('location')!.split('/').pop()!;
    expect(
      (await errorOf(await send(admin.browser, 'POST', datasets(), { uploadId: stlId, name: 'stl' }))).status,
    ).toBe(415);
    const whole = await upload(admin.browser, new Uint8Array(10));
    const long = await errorOf(
      await send(admin.browser, 'POST', datasets(), { uploadId: whole, name: 'x'.repeat(81) }),
    );
    expect(long.status).toBe(400);
    expect(long.message).toContain(imagingNameTooLongMessage);
    expect((await send(admin.browser, 'POST', datasets(), { uploadId: 'nope', name: 'x' })).status).toBe(400);
  });

  it('takes a name no patient cohort of the workspace has, in any letter case (spec §5 "Cohort name")', async () => {
    const ordered = await orderCohort(admin.browser, deviceId, { name: 'Mitral Cohort 7' });
    const uploadId = await upload(admin.browser, new Uint8Array(10));
    const taken = { status: 409, code: 'cohort_name_taken', message: cohortNameTakenMessage };
    const clash = await send(admin.browser, 'POST', datasets(), { uploadId, name: ` ${ordered.name.toUpperCase()} ` });
    expect(await errorOf(clash)).toEqual(taken);
    // Nothing was made: the upload is still there for a free name.
    const made = await send(admin.browser, 'POST', datasets(), { uploadId, name: 'Uploaded CTs 7' });
    expect(made.status).toBe(201);
    // And the other way round: an order may not take the dataset's name.
    const order = await admin.browser.postJson(
      `/api/devices/${deviceId}/cohorts`,
      orderBody({ name: 'uploaded cts 7' }),
    );
    expect(await errorOf(order)).toEqual(taken);
  });

  it("a dataset uploaded in the project wizard joins the project made with it, once, and only the uploader's", async () => {
    const mine = await checked(
      admin.browser,
      (await createDataset(admin.browser, await zipOf([['a.dcm', await deidentified(7)], manifestEntry()]))).id,
    );
    expect(mine.status).toBe('modelling');
    const refused = await checked(
      admin.browser,
      (await createDataset(admin.browser, new TextEncoder().encode('plain text'))).id,
    );
    const members = await createDataset(browsers.member, await zipOf([manifestEntry()]));
    const project = (imagingDatasetIds: string[]) =>
      send(admin.browser, 'POST', `/api/devices/${deviceId}/projects`, {
        name: `Own images ${Math.random().toString(36).slice(2, 8)}`,
        developmentStage: 'concept_and_design_feasibility',
        imagingDatasetIds,
      });
    // Another's, a refused one: 404 with the message, and no project is made.
    for (const ids of [[members.id], [refused.id], [mine.id, members.id]]) {
      const refusal = await errorOf(await project(ids));
      expect(refusal).toMatchObject({ status: 404, message: imagingDatasetNotInProjectMessage });
    }
    expect((await json<ImagingDataset>(await admin.browser.get(`${datasets()}/${mine.id}`))).projectId).toBeNull();
    const created = await project([mine.id]);
    expect(created.status, await created.clone().text()).toBe(201);
    const { id: projectId } = await json<{ id: string }>(created);
    expect((await json<ImagingDataset>(await admin.browser.get(`${datasets()}/${mine.id}`))).projectId).toBe(projectId);
    // Already in a project: it cannot join a second one.
    expect((await errorOf(await project([mine.id]))).status).toBe(404);
  });

  it("serves an accepted dataset's zip by byte ranges for the slice viewer; refused ones and guests get none", async () => {
    const zip = await zipOf([['a.dcm', await deidentified(9)], manifestEntry()]);
    const dataset = await checked(admin.browser, (await createDataset(admin.browser, zip)).id);
    const url = `${datasets()}/${dataset.id}/file`;
    const whole = await admin.browser.get(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(zip);
    const part = await admin.browser.request(url, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${zip.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(zip.subarray(10, 30));
    const tail = await browsers.member.request(url, { headers: { range: 'bytes=-22' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(zip.subarray(zip.length - 22));
    expect((await admin.browser.request(url, { headers: { range: `bytes=${zip.length}-` } })).status).toBe(416);
    expect((await admin.browser.request(url, { headers: { range: 'lines=1-2' } })).status).toBe(416);
    expect((await browsers.guest.get(url)).status).toBe(403);
    const refused = await checked(admin.browser, (await createDataset(admin.browser, new Uint8Array(10))).id);
    expect((await admin.browser.get(`${datasets()}/${refused.id}/file`)).status).toBe(404);
  });

  it('permissions: admins and members make and read datasets; guests 403; outsiders 404; no session 401', async () => {
    const memberDataset = await createDataset(browsers.member, await zipOf([manifestEntry()]));
    // Someone else's upload answers like a missing one.
    const adminUpload = await upload(admin.browser, new Uint8Array(10));
    expect((await send(browsers.member, 'POST', datasets(), { uploadId: adminUpload, name: 'not mine' })).status).toBe(
      404,
    );
    const expected: Record<Principal, number> = {
      anonymous: 401,
      nonMember: 404,
      invited: 404,
      pending: 403, // the workspace's refusal while approval waits (policies/workspace.policy.ts)
      guest: 403,
      member: 200,
      otherAdmin: 404,
      admin: 200,
    };
    for (const [principal, status] of Object.entries(expected) as [Principal, number][]) {
      expect((await browsers[principal].get(datasets())).status, principal).toBe(status);
      expect((await browsers[principal].get(`${datasets()}/${memberDataset.id}`)).status, principal).toBe(status);
    }
    expect((await browsers.guest.request(`/api/devices/${deviceId}/uploads`, { method: 'POST' })).status).not.toBe(201);
  });
});

describe('the support staff modelling queue: download the dataset, deliver the patient models, the cohort is ready', () => {
  const queue = '/api/support/imaging-datasets';
  const landmarks = (names: string[]) =>
    new TextEncoder().encode(
      JSON.stringify({ landmarks: names.map((name, i) => ({ name, position: [i, 2 * i, 3] })) }),
    );
  /** A cube with its last triangle gone: a surface with a hole. */
  const openCube = () => {
    const closed = cube();
    return writeBinaryStl({
      positions: closed.positions,
      indices: closed.indices.subarray(0, closed.indices.length - 3),
    });
  };

  it('shows staff the queue across workspaces, refuses bad models naming the file, makes the dataset ready once', async () => {
    await server.context.supportStaff.set(admin.account.email, true);
    try {
      const dataset = await checked(
        browsers.member,
        (await createDataset(browsers.member, await zipOf([['a.dcm', await deidentified(8)], manifestEntry()]))).id,
      );
      expect(dataset.status).toBe('modelling');
      const waiting = await json<ImagingQueue>(await admin.browser.get(queue));
      const item = waiting.items.find((d) => d.id === dataset.id);
      expect(item?.workspace.id).toBe(deviceId);
      expect(item?.uploadedBy?.id).toBe(dataset.uploadedBy?.id);

      const download = await admin.browser.get(`${queue}/${dataset.id}/download`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toContain('application/zip');
      expect(new Uint8Array(await download.arrayBuffer()).length).toBe(dataset.bytes);

      const deliver = (bytes: Uint8Array) =>
        putBytes(admin.browser, `${queue}/${dataset.id}/models`, bytes, { contentType: 'application/zip' });
      const modelFiles = () => storedModels(server, dataset.id);
      // 202: the models are stored and their check is a job; the delivery is pending meanwhile.
      const { submitted, delivery: refused } = await deliverAndWait(
        admin.browser,
        dataset.id,
        await zipOf([
          ['P1/aorta_systole.stl', openCube()],
          ['P1/ventricle_diastole.stl', writeBinaryStl(cube())],
          ['P2/aorta_systole.stl', writeBinaryStl(cube())],
          ['P2/landmarks.json', new TextEncoder().encode('{"landmarks": []}')],
          ['notes.txt', new TextEncoder().encode('x')],
        ]),
      );
      expect(submitted).toMatchObject({ pending: true, accepted: false, findings: [] });
      expect(submitted.dataset.status).toBe('modelling');
      expect(submitted.dataset.delivery?.status).toBe('pending');
      expect(refused.status).toBe('refused');
      // The refused zip is removed again.
      expect(await modelFiles()).toEqual([]);
      expect(refused.findings).toEqual(
        expect.arrayContaining([
          { file: 'P1/aorta_systole.stl', tag: null, problem: expect.stringContaining('is not a closed surface') },
          { file: 'P1/landmarks.json', tag: null, problem: 'is missing' },
          { file: 'P2/landmarks.json', tag: null, problem: expect.stringContaining('at least one landmark') },
          { file: 'notes.txt', tag: null, problem: expect.stringContaining('is neither') },
        ]),
      );
      expect((await json<ImagingDataset>(await browsers.member.get(`${datasets()}/${dataset.id}`))).status).toBe(
        'modelling',
      );

      const { delivery: accepted } = await deliverAndWait(
        admin.browser,
        dataset.id,
        await zipOf([
          ['P1/aorta_systole.stl', writeBinaryStl(cube())],
          ['P1/landmarks.json', landmarks(['annulus centre', 'apex'])],
        ]),
      );
      expect(accepted).toMatchObject({ status: 'accepted', findings: [] });
      expect(await modelFiles()).toHaveLength(1);
      // The uploader is told, once, from the job's event (services/job-notifications.ts).
      const told = await json<NotificationList>(await browsers.member.get('/api/notifications?limit=100'));
      expect(told.items.filter((n) => n.kind === 'imaging.ready' && n.link?.includes(dataset.id))).toHaveLength(1);
      const staffTold = await json<NotificationList>(await admin.browser.get('/api/notifications?limit=100'));
      expect(staffTold.items.some((n) => n.kind === 'imaging.ready' && n.link?.includes(dataset.id))).toBe(false);
      const ready = await json<ImagingDataset>(await browsers.member.get(`${datasets()}/${dataset.id}`));
      expect(ready.status).toBe('ready');
      expect(ready.models?.deliveredBy?.id).toBe(admin.id);
      expect(ready.models?.patients).toEqual([
        {
          patient: 'P1',
          landmarks: [
            { name: 'annulus centre', position: [0, 0, 3] },
            { name: 'apex', position: [1, 2, 3] },
          ],
          models: [{ patient: 'P1', organ: 'aorta', phase: 'systole', triangles: 12, volume: 1000 }],
        },
      ]);
      // Once: a second delivery is refused and changes nothing.
      const again = await deliver(await zipOf([['P1/aorta_systole.stl', writeBinaryStl(cube())]]));
      expect(again.status).toBe(409);
      expect((await json<ImagingQueue>(await admin.browser.get(queue))).items.some((d) => d.id === dataset.id)).toBe(
        false,
      );
      expect(
        (await json<ImagingQueue>(await admin.browser.get(`${queue}?status=ready`))).items.some(
          (d) => d.id === dataset.id,
        ),
      ).toBe(true);
    } finally {
      await server.context.supportStaff.set(admin.account.email, false);
    }
  });

  it('is for support staff only: 403 for workspace members and admins, 401 without a session', async () => {
    expect((await admin.browser.get(queue)).status).toBe(403);
    expect((await browsers.member.get(queue)).status).toBe(403);
    expect((await browsers.anonymous.get(queue)).status).toBe(401);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await admin.browser.get(`${queue}/${id}/download`)).status).toBe(403);
    expect(
      (await putBytes(admin.browser, `${queue}/${id}/models`, new Uint8Array(4), { contentType: 'application/zip' }))
        .status,
    ).toBe(403);
  });
});
