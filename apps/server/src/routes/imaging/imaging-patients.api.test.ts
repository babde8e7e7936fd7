import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import type {
  ImagingCohortList,
  ImagingPatient,
  PatientLandmarks,
  Room,
  RoomPage,
  RoomScene,
  SimulationSetup,
} from '@insilico/contracts';
import { enclosedVolume_mm3, writeBinaryStl } from '@insilico/mesh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertModellingDataset } from '../../../test/factories/imaging-rows';
import { zipOf } from '../../../../../test/helpers/imaging-zip';
import { roomsPathOf } from '../../../test/fixtures/room.fixtures';
import { cube } from '../../../test/fixtures/stl.fixtures';
import { deliveredDataset } from '../../../test/fixtures/imaging-delivery.fixtures';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';

// The patients of an imaging cohort used like built-in ones (issue 19 item 7): support staff deliver the models of
// two patients — one with the aortic root, LV blood pools at both phases and the landmarks a simulation needs, one
// with a cube "aorta" and a landmark of their own naming — and the project sees them as patients: their page, the
// surfaces as GLB, rooms on them, and the simulation set-up, which says in words what an anatomy lacks.

let server: TestServer;
let admin: Person;
let guest: Person;
let outsider: Person;
let deviceId = '';
let projectId = '';
let datasetId = '';

const virtual = generatePatient(20261128, 3);
const diastole = buildPatientMeshes(virtual, 'end-diastole');
const systole = buildPatientMeshes(virtual, 'end-systole');
const stl = (mesh: Parameters<typeof writeBinaryStl>[0]) => writeBinaryStl(mesh);
const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** P1: what a simulation needs (names as a person writes them); P2: a cube "aorta" at systole and one landmark. */
async function models(): Promise<Uint8Array> {
  const landmark = (name: string, as: Parameters<typeof landmarkOf>[1]) => ({
    name,
    position: landmarkOf(diastole, as).position,
  });
  return zipOf([
    ['P1/Aortic-Root_End-Diastole.stl', stl(organMesh(diastole, 'aortic_root'))],
    ['P1/lv-blood-pool_end-diastole.stl', stl(organMesh(diastole, 'lv_blood_pool'))],
    ['P1/lv-blood-pool_end-systole.stl', stl(organMesh(systole, 'lv_blood_pool'))],
    [
      'P1/landmarks.json',
      text({
        landmarks: [
          landmark('Aortic annulus', 'aortic_annulus'),
          landmark('ascending-aorta', 'ascending_aorta'),
          landmark('LVOT', 'lvot'),
          landmark('sinotubular junction', 'sinotubular_junction'),
        ],
      }),
    ],
    ['P2/aorta_systole.stl', stl(cube())],
    ['P2/landmarks.json', text({ landmarks: [{ name: 'annulus', position: [1, 2, 3] }] })],
  ]);
}

const cohorts = () => `/api/devices/${deviceId}/projects/${projectId}/imaging-cohorts`;
const patientPath = (id: string) => `${cohorts()}/${datasetId}/patients/${id}`;

beforeAll(async () => {
  const world = await projectWorld({
    people: { guest: 'guest', outsider: 'outsider' },
    project: { team: ['admin', 'guest'] },
  });
  ({ server, admin, deviceId, projectId } = world);
  ({ guest, outsider } = world.people);
  datasetId = await deliveredDataset(server, admin, { deviceId, projectId, name: 'Own CT' }, await models());
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe('imaging patients: the delivered models as patients of the project', () => {
  it('lists the cohort with its patients: surfaces, landmarks in the anatomy’s spelling, measured LV volumes', async () => {
    const list = await json<ImagingCohortList>(await guest.browser.get(cohorts()));
    expect(list.items).toHaveLength(1);
    const [cohort] = list.items;
    expect(cohort).toMatchObject({ datasetId, name: 'Own CT', status: 'ready' });
    expect(cohort!.patients.map((p) => p.id)).toEqual(['P1', 'P2']);
    const p1 = await json<ImagingPatient>(await guest.browser.get(patientPath('P1')));
    expect(p1.source).toBe('imaging');
    expect(p1.meshes).toEqual({ phases: ['end-diastole', 'end-systole'], organs: ['aortic_root', 'lv_blood_pool'] });
    expect(p1.landmarks.map((l) => l.name)).toEqual([
      'aortic_annulus',
      'ascending_aorta',
      'lvot',
      'sinotubular_junction',
    ]);
    // The LV volumes are the closed pools' enclosed volumes (STL keeps float32 coordinates: to 0.001 mL); stroke
    // volume and EF follow from them.
    const edv = Math.abs(enclosedVolume_mm3(organMesh(diastole, 'lv_blood_pool'))) / 1000;
    const esv = Math.abs(enclosedVolume_mm3(organMesh(systole, 'lv_blood_pool'))) / 1000;
    const value = (key: string) => p1.parameters.find((p) => p.key === key)?.value;
    expect(value('lvEdv_mL')).toBeCloseTo(edv, 3);
    expect(value('lvEsv_mL')).toBeCloseTo(esv, 3);
    expect(value('strokeVolume_mL')).toBeCloseTo(edv - esv, 3);
    expect(value('lvef_pct')).toBeCloseTo((100 * (edv - esv)) / edv, 3);
    // Nothing of a virtual patient's is invented for it: no age, sex or body size.
    expect(p1).not.toHaveProperty('sex');
    expect(p1.parameters.every((p) => p.group === 'cardiac')).toBe(true);
    const p2 = await json<ImagingPatient>(await guest.browser.get(patientPath('P2')));
    expect(p2.parameters.map((p) => p.label)).toEqual(['Aorta volume (systole)']);
  });

  it('serves each phase as a GLB with one node per organ and the landmarks; 404 for what was not delivered', async () => {
    const glb = await guest.browser.get(`${patientPath('P1')}/meshes/end-diastole`);
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toContain('model/gltf-binary');
    const bytes = new Uint8Array(await glb.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('glTF');
    const length = new DataView(bytes.buffer).getUint32(12, true);
    const gltf = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as {
      nodes: { name: string }[];
      asset: { extras: { source: string; landmarks: { name: string }[] } };
    };
    expect(gltf.nodes.map((n) => n.name).sort()).toEqual(['aortic_root', 'lv_blood_pool']);
    expect(gltf.asset.extras.source).toBe('imaging');
    expect(gltf.asset.extras.landmarks).toHaveLength(4);
    // Built once, then read back from storage: the same bytes.
    const again = new Uint8Array(
      await (await admin.browser.get(`${patientPath('P1')}/meshes/end-diastole`)).arrayBuffer(),
    );
    expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
    const landmarks = await json<PatientLandmarks>(
      await guest.browser.get(`${patientPath('P1')}/meshes/end-systole/landmarks`),
    );
    expect(landmarks).toMatchObject({ patientId: 'P1', phase: 'end-systole', unit: 'mm' });
    expect((await guest.browser.get(`${patientPath('P1')}/meshes/systole`)).status).toBe(404);
    expect((await errorOf(await guest.browser.get(patientPath('P9')))).status).toBe(404);
    expect((await guest.browser.get(`${cohorts()}/${crypto.randomUUID()}/patients/P1`)).status).toBe(404);
  });

  it('keeps them from people outside the project: outsiders 404, no session 401', async () => {
    expect((await outsider.browser.get(cohorts())).status).toBe(404);
    expect((await outsider.browser.get(patientPath('P1'))).status).toBe(404);
    const anonymous = await fetch(new URL(patientPath('P1'), server.origin));
    expect(anonymous.status).toBe(401);
  });
});

describe('rooms on imaging patients', () => {
  let room: Room;

  it('creates a room on a delivered patient; its scene loads the delivered surfaces', async () => {
    const created = await send(admin.browser, 'POST', roomsPathOf(deviceId, projectId), {
      imagingDatasetId: datasetId,
      patientId: 'P1',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    room = await json<Room>(created);
    expect(room.name).toBe('P1 room');
    expect(room.subject).toEqual({ kind: 'imaging', datasetId, datasetName: 'Own CT', patientId: 'P1' });
    const scene = await json<RoomScene>(
      await guest.browser.get(`${roomsPathOf(deviceId, projectId)}/${room.id}/scene`),
    );
    expect(scene.anatomy.phases).toEqual(['end-diastole', 'end-systole']);
    expect(scene.anatomy.organs).toEqual(['aortic_root', 'lv_blood_pool']);
    expect(scene.anatomy.meshUrlTemplate).toBe(`${cohorts()}/${datasetId}/patients/P1/meshes/{phase}`);
    const page = await json<RoomPage>(await guest.browser.get(`${roomsPathOf(deviceId, projectId)}?subject=patient`));
    expect(page.items.map((r) => r.id)).toContain(room.id);
  });

  it('saves the view with a delivered phase and landmark; refuses what the patient does not have', async () => {
    const scenePath = `${roomsPathOf(deviceId, projectId)}/${room.id}/scene`;
    const saved = await send(admin.browser, 'PUT', scenePath, {
      view: { phase: 'end-systole', hiddenOrgans: ['lv_blood_pool'] },
      placements: [],
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await json<RoomScene>(saved)).view).toEqual({ phase: 'end-systole', hiddenOrgans: ['lv_blood_pool'] });
    const refused = await send(admin.browser, 'PUT', scenePath, {
      view: { phase: 'systole', hiddenOrgans: [] },
      placements: [],
    });
    expect(await errorOf(refused)).toMatchObject({
      status: 422,
      code: 'unknown_phase',
      message: 'Patient P1 has no images for the phase systole.',
    });
  });

  it('refuses a patient the cohort does not have, a dataset of no project of this one, and guests', async () => {
    const create = (browser: Person['browser'], body: Record<string, unknown>) =>
      send(browser, 'POST', roomsPathOf(deviceId, projectId), body);
    expect(await errorOf(await create(admin.browser, { imagingDatasetId: datasetId, patientId: 'P7' }))).toMatchObject({
      status: 422,
      message: 'Imaging cohort Own CT has no patient P7.',
    });
    const elsewhere = await insertModellingDataset(server, { deviceId, projectId: null, uploadedBy: admin.id });
    expect(await errorOf(await create(admin.browser, { imagingDatasetId: elsewhere, patientId: 'P1' }))).toMatchObject({
      status: 422,
      code: 'imaging_cohort_not_in_project',
    });
    expect((await create(guest.browser, { imagingDatasetId: datasetId, patientId: 'P2' })).status).toBe(403);
  });

  it('refuses a room while the models are being made', async () => {
    const waiting = await insertModellingDataset(server, { deviceId, projectId, uploadedBy: admin.id });
    const refused = await send(admin.browser, 'POST', roomsPathOf(deviceId, projectId), {
      imagingDatasetId: waiting,
      patientId: 'P1',
    });
    expect(await errorOf(refused)).toMatchObject({ status: 409, code: 'imaging_cohort_not_ready' });
    const list = await json<ImagingCohortList>(await admin.browser.get(cohorts()));
    expect(list.items.find((c) => c.datasetId === waiting)).toMatchObject({ status: 'modelling', patients: [] });
  });

  it('sets up simulations on the delivered anatomy; where it lacks what a kind needs, the set-up says why', async () => {
    const setup = (roomId: string, kind: string) =>
      guest.browser.get(`${roomsPathOf(deviceId, projectId)}/${roomId}/simulations/setup?kind=${kind}`);
    // The room shows end-systole, where only the LV pool was delivered.
    const systolic = await json<SimulationSetup>(await setup(room.id, 'fluid'));
    expect(systolic.phase).toBe('end-systole');
    expect(systolic.estimates).toBeNull();
    expect(systolic.problemsAdjustable).toBe(false);
    expect(systolic.problems).toEqual([
      'Patient P1 has no aortic root surface at end-systole: simulations need the closed surface of the LVOT, aortic root and ascending aorta (delivered as aortic-root_end-systole.stl).',
    ]);
    const scenePath = `${roomsPathOf(deviceId, projectId)}/${room.id}/scene`;
    const view = { view: { phase: 'end-diastole', hiddenOrgans: [] }, placements: [] };
    expect((await send(admin.browser, 'PUT', scenePath, view)).status).toBe(200);
    const fluid = await json<SimulationSetup>(await setup(room.id, 'fluid'));
    expect(fluid.problems).toEqual([]);
    expect(fluid.phase).toBe('end-diastole');
    expect(fluid.estimates?.length).toBeGreaterThan(0);
    expect(fluid.planes?.inlet.radius).toBeGreaterThan(0);
    // The default stroke volume is the one measured on the delivered LV pools.
    const p1 = await json<ImagingPatient>(await guest.browser.get(patientPath('P1')));
    const sv = p1.parameters.find((p) => p.key === 'strokeVolume_mL')!.value;
    expect(fluid.parameters.strokeVolume_mL).toBeCloseTo(Math.round(sv * 10) / 10, 6);
    // The solid kind needs a device: that is a problem of the room, said as for any room.
    const solid = await json<SimulationSetup>(await setup(room.id, 'solid'));
    expect(solid.problems.join(' ')).toContain('This room has no device');

    const cubeRoom = await json<Room>(
      await send(admin.browser, 'POST', roomsPathOf(deviceId, projectId), {
        imagingDatasetId: datasetId,
        patientId: 'P2',
      }),
    );
    const lacking = await json<SimulationSetup>(await setup(cubeRoom.id, 'fluid'));
    expect(lacking.estimates).toBeNull();
    expect(lacking.problemsAdjustable).toBe(false);
    expect(lacking.problems).toEqual([
      "Patient P2 has no aortic annulus or ascending aorta landmark: a simulation places its inlet, outlet and the root's axis from the aortic annulus and the ascending aorta.",
    ]);
  });
});
