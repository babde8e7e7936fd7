import { createDefaultCriteria } from '@insilico/anatomy';
import { writeBinaryStl, type Vec3 } from '@insilico/mesh';
import { annulusPlacement, ringDeviceMesh } from '@insilico/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../../test/helpers/browser';
import { startTestServer, type TestServer } from '../../test/helpers/test-server';
import {
  createWorkspace,
  invite,
  joinedMember,
  json,
  mailedToken,
  send,
  signedIn,
  workspaceBody,
  type Person,
} from '../../test/fixtures/workspace.fixtures';
import { asBuiltBeforeLandmarkModes, insertFailedSsm } from '../../test/factories/ssm-rows';
import { insertProject } from '../../test/factories/project-rows';
import { insertSsmRoom, insertVersionWithModel } from '../../test/factories/room-rows';
import { insertSimulation } from '../../test/factories/simulation-rows';
import { insertTrialRow, insertWaitingTrial } from '../../test/factories/trial-rows';
import { putBytes, testPicture } from '../../test/helpers/pictures';
import { createRoom, patientIdsOf, postBytes, transform } from '../../test/fixtures/room.fixtures';
import { criteriaWith, orderCohort, settled } from '../../test/fixtures/cohort.fixtures';
import { cube } from '../../test/fixtures/stl.fixtures';
import { postVersion } from '../../test/fixtures/device-version.fixtures';
import { tetrahedronStl } from '../../test/factories/room-rows';
import { copyReadyCohort } from '../../test/factories/analysis-rows';
import { createUpload, metadataOf, patchUpload } from '../../test/fixtures/upload.fixtures';
import { zipOf } from '../../../../test/helpers/imaging-zip';
import { devices, imagingDatasets, projectCohorts } from '../db/schema';
import { eq } from 'drizzle-orm';

// Issue 20: every mutating API route of the OpenAPI document writes exactly one domain event (the audit trail's row).
// The document is walked like the NUL-character test walks it; each mutating operation must be in exactly one of
// three lists, so a new route cannot slip by unclassified:
//   audited       — a scenario calls it and the test checks that exactly one event with its action was written;
//   notYetAudited — the named allow-list of regulated changes that write no event yet, each with its TODO reason;
//   notRegulated  — changes of no regulated record (one's own session, notifications, analytics), with why.

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Fixture {
  admin: Person;
  member: Person;
  deviceId: string;
  projectId: string;
  /** A ready cohort (five patients) on the project. */
  cohortId: string;
  patientIds: string[];
  /** A ready cohort of ten patients with end-diastole images on the project (an SSM needs ten). */
  tenId: string;
  /** An SSM of the root and LV (not the last scenario's configuration), built while the scenarios run. */
  ssmId: string;
}

interface Scenario {
  action: string;
  /** Makes the call; answers its response (it must succeed). */
  call: (fixture: Fixture) => Promise<Response>;
  /** Who acts, when not the workspace's admin (the invitee who accepts an invitation). */
  actor?: () => string;
}

/** The person who accepted an invitation in the last scenario that made one. */
let invitee: Person | null = null;

let server: TestServer;
let fixture: Fixture;

const project = (f: Fixture) => `/api/devices/${f.deviceId}/projects/${f.projectId}`;

async function postComment(f: Fixture): Promise<string> {
  const response = await f.admin.browser.postJson(`${project(f)}/comments`, { body: 'Checked the sizing' });
  return (await json<{ id: string }>(response)).id;
}

async function extraMember(f: Fixture): Promise<Person> {
  return joinedMember(server, f.admin, f.deviceId, 'member');
}

const unique = (prefix: string) => `${prefix} ${Math.random().toString(36).slice(2, 8)}`;

/** A room of the project (a row on a shape-model row: no cohort needed); answers its id. */
const room = (f: Fixture) =>
  insertSsmRoom(server, { deviceId: f.deviceId, projectId: f.projectId, name: unique('Room') });

/** A trial row of the project (on a cohort row that is never ordered); answers its id. */
const trial = (f: Fixture) =>
  insertTrialRow(server, {
    deviceId: f.deviceId,
    projectId: f.projectId,
    name: unique('Trial'),
    createdBy: f.admin.id,
  });

/** A ready device version of the workspace, on the project when asked; answers its id. */
async function version(f: Fixture, onProject: boolean): Promise<string> {
  const input = { name: unique('Version'), status: 'ready' as const };
  return (await insertVersionWithModel(server, f.deviceId, onProject ? { ...input, projectId: f.projectId } : input))
    .versionId;
}

const definition = (name: string) => ({
  name,
  description: 'Annulus centre to LV apex',
  phase: 'end-diastole',
  geometry: { type: 'distance', from: { landmark: 'aortic_annulus' }, to: { landmark: 'lv_apex' } },
});

/** A measurement definition of the workspace; answers its id (its lineage's). */
async function defined(f: Fixture): Promise<string> {
  const response = await f.admin.browser.postJson(
    `/api/devices/${f.deviceId}/measurement-definitions`,
    definition(unique('Distance')),
  );
  return (await json<{ id: string }>(response)).id;
}

/** A simulation row of a new room in the given state; answers its API path. */
async function simulation(f: Fixture, status: 'queued' | 'failed'): Promise<string> {
  const roomId = await room(f);
  const id = await insertSimulation(server, { projectId: f.projectId, roomId, name: unique('Run'), status });
  return `${project(f)}/simulations/${id}`;
}

/** A design history entry of the project (issue 20 item 4). */
const designEntry = (f: Fixture) =>
  f.admin.browser.postJson(`/api/devices/${f.deviceId}/design-history/entries`, {
    projectId: f.projectId,
    kind: 'review',
    title: unique('Design review'),
  });
/** A ready cohort of the workspace, not on the project (a copy of the fixture's). */
const spareCohort = (f: Fixture) => copyReadyCohort(server, f.cohortId);

const analysisParameters = ['aorticAnnulusPerimeter_mm', 'aorticAnnulusArea_mm2', 'height_cm'];

/** An analysis of the project on the fixture's cohort; answers its API path. */
async function analysis(f: Fixture): Promise<string> {
  const response = await f.admin.browser.postJson(`${project(f)}/analyses`, {
    cohortId: f.cohortId,
    parameters: analysisParameters,
  });
  return `${project(f)}/analyses/${(await json<{ id: string }>(response)).id}`;
}

/** A room of the project on the first patient of the fixture's cohort; answers its id. */
async function patientRoom(f: Fixture): Promise<string> {
  return (
    await createRoom(f.admin.browser, f.deviceId, f.projectId, {
      cohortId: f.cohortId,
      patientId: f.patientIds[0],
      name: unique('Patient room'),
    })
  ).id;
}

/** A finished tus upload of `bytes`, as a file of the given purpose; answers its id. */
/** An imaging dataset waiting for its patient models (its row only: checking it is the imaging suites'). */
async function modellingDataset(f: Fixture): Promise<string> {
  const orm = server.context.db.orm;
  const [device] = await orm.select({ region: devices.dataRegion }).from(devices).where(eq(devices.id, f.deviceId));
  const [row] = await orm
    .insert(imagingDatasets)
    .values({
      deviceId: f.deviceId,
      projectId: null,
      name: unique('CT'),
      status: 'modelling',
      uploadedBy: f.admin.id,
      region: device!.region,
      storageKey: `imaging/${unique('coverage').replace(' ', '-')}.zip`,
      bytes: 0,
    })
    .returning({ id: imagingDatasets.id });
  return row!.id;
}

async function uploaded(f: Fixture, bytes: Uint8Array, fileName: string, purpose: string): Promise<string> {
  const created = await createUpload(f.admin.browser, f.deviceId, bytes.length, fileName, {
    'upload-metadata': metadataOf({ filename: fileName, purpose }),
  });
  const location = created.headers.get('location')!;
  expect((await patchUpload(f.admin.browser, location, 0, bytes)).status).toBe(204);
  return location.split('/').pop()!;
}

/** The steps of a complete onboarding (as onboarding.api.test.ts walks them). */
const onboardingSteps = [
  { stepActive: 2, bodyPart: 'heart_and_thorax' },
  { stepActive: 3, developmentPhase: ['clinical_trial'] },
  { stepActive: 4, deviceInfo: { deviceName: 'Stent S', deviceType: 'stent' } },
  { stepActive: 5, yourCompany: workspaceBody().company },
  { stepActive: 6, yourTeam: [] },
];

/** Polls a measurement order until its job has measured every patient. */
async function measured(f: Fixture, orderId: string): Promise<void> {
  const until = Date.now() + 90_000;
  for (;;) {
    const order = await json<{ status: string }>(
      await f.admin.browser.get(`/api/devices/${f.deviceId}/measurement-orders/${orderId}`),
    );
    if (order.status !== 'in_progress') return;
    if (Date.now() > until) throw new Error(`measurement order ${orderId} still in progress`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A patient of the fixture's cohort with end-systolic images, and its aortic annulus then (as the correction moves it). */
async function endSystolicAnnulus(f: Fixture): Promise<{ patientId: string; position: number[]; normal: number[] }> {
  for (const patientId of f.patientIds) {
    const response = await f.admin.browser.get(
      `/api/devices/${f.deviceId}/cohorts/${f.cohortId}/patients/${patientId}/meshes/end-systole/landmarks`,
    );
    if (response.status !== 200) continue;
    const { landmarks } = await json<{ landmarks: { name: string; position: number[]; normal?: number[] }[] }>(
      response,
    );
    const annulus = landmarks.find((landmark) => landmark.name === 'aortic_annulus')!;
    return { patientId, position: annulus.position, normal: annulus.normal! };
  }
  throw new Error('no patient of the cohort has end-systolic images');
}

/** The run the simulation scenarios start, cancel, retry and name particles of (test resolution: seconds). */
let run: string | null = null;

/** A room of the project with a ring valve placed at the first patient's aortic annulus; answers its id. */
async function placedRoom(f: Fixture): Promise<string> {
  const versionId = (
    await insertVersionWithModel(server, f.deviceId, {
      name: unique('Ring valve'),
      status: 'ready',
      projectId: f.projectId,
      stl: writeBinaryStl(ringDeviceMesh(9, 1.5)),
    })
  ).versionId;
  const roomId = await patientRoom(f);
  const { anatomy } = await json<{ anatomy: { phases: string[] } }>(
    await f.admin.browser.get(`${project(f)}/rooms/${roomId}/scene`),
  );
  const { landmarks } = await json<{ landmarks: { name: string; position: Vec3; normal?: Vec3 }[] }>(
    await f.admin.browser.get(
      `/api/devices/${f.deviceId}/cohorts/${f.cohortId}/patients/${f.patientIds[0]}/meshes/${anatomy.phases[0]}/landmarks`,
    ),
  );
  const annulus = landmarks.find((landmark) => landmark.name === 'aortic_annulus')!;
  const placed = await send(f.admin.browser, 'PUT', `${project(f)}/rooms/${roomId}/scene`, {
    view: { phase: null, hiddenOrgans: [] },
    placements: [
      {
        versionId,
        transform: annulusPlacement({ annulus: annulus.position, axis: annulus.normal! }, 2),
        landmark: 'aortic_annulus',
      },
    ],
  });
  expect(placed.status).toBe(200);
  return roomId;
}

/** Starts a particle-tracking run of eight particles at the test resolution (the operator's switch); answers its path. */
async function startRun(f: Fixture): Promise<Response> {
  await server.context.simulations.setTestResolution(f.deviceId, true);
  const response = await f.admin.browser.postJson(`${project(f)}/rooms/${await placedRoom(f)}/simulations`, {
    kind: 'particle',
    resolution: 'test',
    name: unique('Tracked'),
    parameters: { particleCount: 8 },
  });
  run = `${project(f)}/simulations/${(await json<{ id: string }>(response.clone())).id}`;
  return response;
}

/** Polls the run until it has ended. */
async function ended(f: Fixture, path: string): Promise<string> {
  const until = Date.now() + 150_000;
  for (;;) {
    const { status } = await json<{ status: string }>(await f.admin.browser.get(path));
    if (!['queued', 'running'].includes(status)) return status;
    if (Date.now() > until) throw new Error(`simulation ${path} is still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** A placement rule no patient meets (annulus 5–6 mm): each trial patient fails at placement, before any run. */
const refusingRule = { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 5, max: 6 } };

/** The trial the trial scenarios start, retry and re-run (its patients fail at placement: no runs). */
let startedTrial: string | null = null;

async function startTrial(f: Fixture): Promise<Response> {
  await server.context.simulations.setTestResolution(f.deviceId, true);
  const response = await f.admin.browser.postJson(`${project(f)}/trials`, {
    name: unique('Trial'),
    cohortId: f.cohortId,
    versionId: await version(f, true),
    kind: 'fluid',
    resolution: 'test',
    placement: refusingRule,
  });
  startedTrial = `${project(f)}/trials/${(await json<{ id: string }>(response.clone())).id}`;
  return response;
}

/** The scenarios' trial once every patient has failed at placement. */
async function endedTrial(f: Fixture): Promise<string> {
  if (!startedTrial) await startTrial(f);
  const until = Date.now() + 120_000;
  for (;;) {
    const { status } = await json<{ status: string }>(await f.admin.browser.get(startedTrial!));
    if (status !== 'running') return startedTrial!;
    if (Date.now() > until) throw new Error(`trial ${startedTrial} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The person who completed an onboarding in the last scenario that did. */
let onboarded: Person | null = null;

/** Routes whose event this test checks, by the document's method and path. */
/** Waits (170 s at most) for the SSM queued in the set-up: every scenario before its first use gave it time. */
async function ssmBuilt(f: Fixture): Promise<void> {
  const until = Date.now() + 170_000;
  let ssm: { status: string } = { status: 'in_progress' };
  while (ssm.status === 'in_progress' && Date.now() < until) {
    ssm = (await (await f.admin.browser.get(`${project(f)}/ssms/${f.ssmId}`)).json()) as { status: string };
    if (ssm.status === 'in_progress') await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const audited: Record<string, Scenario> = {
  'POST /api/devices/{deviceId}/projects': {
    action: 'project.created',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/projects`, {
        name: `Audited ${Math.random().toString(36).slice(2, 8)}`,
        developmentStage: 'concept_and_design_feasibility',
        cohortIds: [],
        versionIds: [],
        teamUserIds: [],
      }),
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}': {
    action: 'project.updated',
    call: (f) => send(f.admin.browser, 'PATCH', project(f), { name: `Renamed ${Math.random().toString(36).slice(2)}` }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/status': {
    action: 'project.status_changed',
    call: (f) => f.admin.browser.postJson(`${project(f)}/status`, { status: 'completed', reason: 'Done' }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/team': {
    action: 'project.member_added',
    call: (f) => f.admin.browser.postJson(`${project(f)}/team`, { userId: f.member.id }),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/team/{userId}': {
    action: 'project.member_removed',
    call: (f) => send(f.admin.browser, 'DELETE', `${project(f)}/team/${f.member.id}`),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/comments': {
    action: 'comment.created',
    call: (f) => f.admin.browser.postJson(`${project(f)}/comments`, { body: 'A first look' }),
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}/comments/{commentId}': {
    action: 'comment.edited',
    call: async (f) =>
      send(f.admin.browser, 'PATCH', `${project(f)}/comments/${await postComment(f)}`, { body: 'Edited' }),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/comments/{commentId}': {
    action: 'comment.deleted',
    call: async (f) => send(f.admin.browser, 'DELETE', `${project(f)}/comments/${await postComment(f)}`),
  },
  'POST /api/devices/{deviceId}/invitations': {
    action: 'team.invited',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/invitations`, {
        email: `invitee-${Math.random().toString(36).slice(2)}@example.com`,
        role: 'member',
      }),
  },
  'PATCH /api/devices/{deviceId}/members/{userId}': {
    action: 'team.role_changed',
    call: async (f) => {
      const person = await extraMember(f);
      return send(f.admin.browser, 'PATCH', `/api/devices/${f.deviceId}/members/${person.id}`, { role: 'guest' });
    },
  },
  'DELETE /api/devices/{deviceId}/members/{userId}': {
    action: 'team.member_removed',
    call: async (f) => {
      const person = await extraMember(f);
      return send(f.admin.browser, 'DELETE', `/api/devices/${f.deviceId}/members/${person.id}`);
    },
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}': {
    action: 'room.renamed',
    call: async (f) =>
      send(f.admin.browser, 'PATCH', `${project(f)}/rooms/${await room(f)}`, { name: unique('Renamed') }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/shares': {
    action: 'room.shared',
    call: async (f) => {
      const person = await extraMember(f);
      await f.admin.browser.postJson(`${project(f)}/team`, { userId: person.id });
      return f.admin.browser.postJson(`${project(f)}/rooms/${await room(f)}/shares`, { userIds: [person.id] });
    },
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/screenshots': {
    action: 'room.screenshot_added',
    call: async (f) =>
      postBytes(f.admin.browser, `${project(f)}/rooms/${await room(f)}/screenshots`, await testPicture('png', 32, 24)),
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}': {
    action: 'simulation.renamed',
    call: async (f) => send(f.admin.browser, 'PATCH', await simulation(f, 'failed'), { name: unique('Renamed run') }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}/cancel': {
    action: 'simulation.cancelled',
    call: async (f) => f.admin.browser.postJson(`${await simulation(f, 'queued')}/cancel`, {}),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}': {
    action: 'simulation.deleted',
    call: async (f) => send(f.admin.browser, 'DELETE', await simulation(f, 'failed')),
  },
  'DELETE /api/devices/{deviceId}/invitations/{invitationId}': {
    action: 'team.invitation_revoked',
    call: async (f) => {
      const response = await invite(f.admin, f.deviceId, `${unique('revoked').replace(' ', '-')}@example.com`);
      const { invitationId } = await json<{ invitationId: string }>(response);
      return send(f.admin.browser, 'DELETE', `/api/devices/${f.deviceId}/invitations/${invitationId}`);
    },
  },
  'POST /api/invitations/accept': {
    action: 'team.invitation_accepted',
    actor: () => invitee!.id,
    call: async (f) => {
      invitee = await signedIn(server);
      await invite(f.admin, f.deviceId, invitee.account.email);
      const token = await mailedToken(server, invitee.account.email);
      return invitee.browser.postJson('/api/invitations/accept', { token });
    },
  },
  'POST /api/devices/{deviceId}/members/{userId}/approve': {
    action: 'team.member_approved',
    call: async (f) => {
      const person = await joinedMember(server, f.admin, f.deviceId, 'member', { approve: false });
      return f.admin.browser.postJson(`/api/devices/${f.deviceId}/members/${person.id}/approve`, {});
    },
  },
  'POST /api/devices': {
    action: 'device.created',
    call: (f) => f.admin.browser.postJson('/api/devices', workspaceBody()),
  },
  'PATCH /api/devices/{deviceId}': {
    action: 'device.updated',
    call: (f) =>
      send(f.admin.browser, 'PATCH', `/api/devices/${f.deviceId}`, {
        developmentStages: ['concept_and_design_feasibility', 'clinical_trial'],
      }),
  },
  'DELETE /api/devices/{deviceId}/device-versions/{versionId}': {
    action: 'device_version.deleted',
    call: async (f) =>
      send(f.admin.browser, 'DELETE', `/api/devices/${f.deviceId}/device-versions/${await version(f, true)}`),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/device-versions': {
    action: 'project.version_added',
    call: async (f) =>
      f.admin.browser.postJson(`${project(f)}/device-versions`, { versionId: await version(f, false) }),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/device-versions/{versionId}': {
    action: 'project.version_removed',
    call: async (f) => send(f.admin.browser, 'DELETE', `${project(f)}/device-versions/${await version(f, true)}`),
  },
  'POST /api/devices/{deviceId}/pathology-requests': {
    action: 'cohort.pathology_requested',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/pathology-requests`, { name: unique('Pathology') }),
  },
  'POST /api/devices/{deviceId}/questions-of-interest': {
    action: 'question.created',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/questions-of-interest`, {
        question: unique('Does the valve seal'),
        contextOfUse: 'Sizing study',
        modelInfluence: 'medium',
        decisionConsequence: 'high',
      }),
  },
  'POST /api/devices/{deviceId}/measurement-definitions': {
    action: 'measurement.defined',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/measurement-definitions`, definition(unique('Distance'))),
  },
  'PUT /api/devices/{deviceId}/measurement-definitions/{definitionId}': {
    action: 'measurement.revised',
    call: async (f) =>
      send(
        f.admin.browser,
        'PUT',
        `/api/devices/${f.deviceId}/measurement-definitions/${await defined(f)}`,
        definition(unique('Revised')),
      ),
  },
  'PUT /api/devices/{deviceId}/picture': {
    action: 'device.picture_changed',
    call: async (f) =>
      putBytes(f.admin.browser, `/api/devices/${f.deviceId}/picture`, await testPicture('png', 40, 40)),
  },
  'DELETE /api/devices/{deviceId}/picture': {
    action: 'device.picture_removed',
    call: (f) => send(f.admin.browser, 'DELETE', `/api/devices/${f.deviceId}/picture`),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}': {
    action: 'room.deleted',
    call: async (f) => {
      const roomId = await insertSsmRoom(server, {
        deviceId: f.deviceId,
        projectId: f.projectId,
        name: 'Audited room',
      });
      return send(f.admin.browser, 'DELETE', `${project(f)}/rooms/${roomId}`);
    },
  },
  'POST /api/devices/{deviceId}/design-history/entries': {
    action: 'design_history.entry_added',
    call: (f) => designEntry(f),
  },
  'PATCH /api/devices/{deviceId}/design-history/entries/{entryId}': {
    action: 'design_history.entry_edited',
    call: async (f) => {
      const { id } = await json<{ id: string }>(await designEntry(f));
      return send(f.admin.browser, 'PATCH', `/api/devices/${f.deviceId}/design-history/entries/${id}`, { body: 'x' });
    },
  },
  'POST /api/devices/{deviceId}/design-history/entries/{entryId}/attachments': {
    action: 'design_history.attachment_added',
    call: async (f) => {
      const { id } = await json<{ id: string }>(await designEntry(f));
      return putBytes(
        f.admin.browser,
        `/api/devices/${f.deviceId}/design-history/entries/${id}/attachments?name=protocol.txt`,
        new TextEncoder().encode('Bench protocol'),
        { method: 'POST', contentType: 'text/plain' },
      );
    },
  },
  'POST /api/devices/{deviceId}/design-history/entries/{entryId}/attachments/uploaded': {
    action: 'design_history.attachment_added',
    call: async (f) => {
      const { id } = await json<{ id: string }>(await designEntry(f));
      const uploadId = await uploaded(
        f,
        new TextEncoder().encode('Bench recording'),
        'recording.txt',
        'design_history_attachment',
      );
      return f.admin.browser.postJson(`/api/devices/${f.deviceId}/design-history/entries/${id}/attachments/uploaded`, {
        uploadId,
      });
    },
  },
  'POST /api/devices/{deviceId}/design-history/signatures': {
    action: 'signature.signed',
    call: async (f) => {
      const { id } = await json<{ id: string }>(await designEntry(f));
      return f.admin.browser.postJson(`/api/devices/${f.deviceId}/design-history/signatures`, {
        record: { type: 'entry', id },
        meaning: 'approval',
        email: f.admin.account.email,
        password: f.admin.account.password,
      });
    },
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/cohorts': {
    action: 'project.cohort_added',
    call: async (f) => f.admin.browser.postJson(`${project(f)}/cohorts`, { cohortId: await spareCohort(f) }),
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/cohorts/{cohortId}': {
    action: 'project.cohort_removed',
    call: async (f) => {
      const cohortId = await spareCohort(f);
      await server.context.db.orm.insert(projectCohorts).values({ projectId: f.projectId, cohortId });
      return send(f.admin.browser, 'DELETE', `${project(f)}/cohorts/${cohortId}`);
    },
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/analyses': {
    action: 'analysis.created',
    call: (f) =>
      f.admin.browser.postJson(`${project(f)}/analyses`, { cohortId: f.cohortId, parameters: analysisParameters }),
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}/analyses/{analysisId}': {
    action: 'analysis.updated',
    call: async (f) =>
      send(f.admin.browser, 'PATCH', await analysis(f), {
        revision: 1,
        excluded: [f.patientIds[1]],
        reason: 'Annulus outside the device’s range',
      }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms': {
    action: 'room.created',
    call: (f) =>
      f.admin.browser.postJson(`${project(f)}/rooms`, {
        cohortId: f.cohortId,
        patientId: f.patientIds[0],
        name: unique('Patient room'),
      }),
  },
  'PUT /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/scene': {
    action: 'room.scene_saved',
    call: async (f) => {
      const versionId = await version(f, true);
      return send(f.admin.browser, 'PUT', `${project(f)}/rooms/${await patientRoom(f)}/scene`, {
        view: { phase: null, hiddenOrgans: [] },
        placements: [{ versionId, transform: transform(), landmark: null }],
      });
    },
  },
  'POST /api/devices/{deviceId}/device-versions': {
    action: 'device_version.created',
    call: (f) => postVersion(f.admin.browser, f.deviceId, [['valve.stl', tetrahedronStl()]]),
  },
  'POST /api/devices/{deviceId}/imaging-datasets': {
    action: 'imaging.dataset_added',
    call: async (f) => {
      // Not a zip: the server's check refuses it later (its job), the dataset and its event are written now.
      const uploadId = await uploaded(f, new TextEncoder().encode('not a zip'), 'ct.zip', 'imaging_dataset');
      return f.admin.browser.postJson(`/api/devices/${f.deviceId}/imaging-datasets`, { uploadId, name: unique('CT') });
    },
  },
  'PUT /api/support/imaging-datasets/{datasetId}/models': {
    // The staff's submission; the job's `imaging.models_delivered` is the system's (on their behalf).
    action: 'imaging.models_submitted',
    call: async (f) => {
      const datasetId = await modellingDataset(f);
      const landmarks = { landmarks: [{ name: 'annulus centre', position: [0, 0, 3] }] };
      const models = await zipOf([
        ['P1/aorta_systole.stl', writeBinaryStl(cube())],
        ['P1/landmarks.json', new TextEncoder().encode(JSON.stringify(landmarks))],
      ]);
      // The support staff deliver the models (the admin is made staff for the call).
      await server.context.supportStaff.set(f.admin.account.email, true);
      try {
        return await putBytes(f.admin.browser, `/api/support/imaging-datasets/${datasetId}/models`, models, {
          contentType: 'application/zip',
        });
      } finally {
        await server.context.supportStaff.set(f.admin.account.email, false);
      }
    },
  },
  'POST /api/devices/{deviceId}/design-history/exports': {
    action: 'design_history.exported',
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/design-history/exports`, {
        projectId: f.projectId,
        format: 'pdf',
      }),
  },
  'POST /api/onboarding/complete': {
    action: 'device.created',
    actor: () => onboarded!.id,
    call: async () => {
      onboarded = await signedIn(server);
      let state: Record<string, unknown> = {};
      for (const step of onboardingSteps) {
        state = { ...state, ...step, stepInfo: { visited: step.stepActive } };
        expect((await send(onboarded.browser, 'PUT', '/api/onboarding', state)).status).toBe(200);
      }
      return onboarded.browser.postJson('/api/onboarding/complete', {});
    },
  },
  'POST /api/devices/{deviceId}/cohorts/{cohortId}/measurement-orders': {
    action: 'measurement.ordered',
    call: async (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/cohorts/${f.cohortId}/measurement-orders`, {
        definitionIds: [await defined(f)],
      }),
  },
  'POST /api/devices/{deviceId}/cohorts': {
    action: 'cohort.ordered',
    // Its order job prepares five patients in the background (its system event is not the route's).
    call: (f) =>
      f.admin.browser.postJson(`/api/devices/${f.deviceId}/cohorts`, {
        name: unique('Cohort'),
        size: 5,
        criteria: createDefaultCriteria(),
      }),
  },
  'PUT /api/devices/{deviceId}/measurement-orders/{orderId}/patients/{patientId}/correction': {
    action: 'measurement.corrected',
    call: async (f) => {
      const base = `/api/devices/${f.deviceId}`;
      const { builtInSets } = await json<{ builtInSets: { definitionIds: string[] }[] }>(
        await f.admin.browser.get(`${base}/measurement-definitions`),
      );
      const order = await json<{ id: string }>(
        await f.admin.browser.postJson(`${base}/cohorts/${f.cohortId}/measurement-orders`, {
          definitionIds: builtInSets[0]!.definitionIds,
        }),
      );
      await measured(f, order.id);
      const { patientId, position, normal } = await endSystolicAnnulus(f);
      return send(f.admin.browser, 'PUT', `${base}/measurement-orders/${order.id}/patients/${patientId}/correction`, {
        phase: 'end-systole',
        landmarks: { aortic_annulus: { position: position.map((x, i) => x + 2 * normal[i]!), normal } },
        reason: 'Annular plane 2 mm too low',
      });
    },
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/simulations': {
    action: 'simulation.started',
    call: (f) => startRun(f),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}/retry': {
    action: 'simulation.retried',
    call: async (f) => {
      if (!run) await startRun(f);
      // Cancelled first (its own event), then run again from its stored case.
      await f.admin.browser.postJson(`${run}/cancel`, {});
      return f.admin.browser.postJson(`${run}/retry`, {});
    },
  },
  'PUT /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}/particles/{object}/{particle}': {
    action: 'simulation.particle_named',
    call: async (f) => {
      if (!run) await startRun(f);
      expect(await ended(f, run!)).toBe('completed');
      return send(f.admin.browser, 'PUT', `${run}/particles/particles/3`, { name: unique('Leader') });
    },
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/trials': {
    action: 'trial.started',
    call: (f) => startTrial(f),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/retry': {
    action: 'trial.retried',
    call: async (f) => f.admin.browser.postJson(`${await endedTrial(f)}/retry`, { placement: refusingRule }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/rerun': {
    action: 'trial.rerun',
    call: async (f) =>
      f.admin.browser.postJson(`${await endedTrial(f)}/rerun`, {
        versionId: await version(f, true),
        name: unique('Re-run'),
      }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/cancel': {
    action: 'trial.cancelled',
    call: async (f) => {
      // A copy of the scenarios' trial whose patients all wait (no job queued).
      const id = await insertWaitingTrial(server, (await endedTrial(f)).split('/').pop()!);
      return f.admin.browser.postJson(`${project(f)}/trials/${id}/cancel`, {});
    },
  },
  'DELETE /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}': {
    action: 'trial.deleted',
    call: async (f) => {
      const trialId = await trial(f);
      return send(f.admin.browser, 'DELETE', `${project(f)}/trials/${trialId}`);
    },
  },
  'PATCH /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}': {
    action: 'trial.settings_changed',
    call: async (f) => {
      const trialId = await trial(f);
      return send(f.admin.browser, 'PATCH', `${project(f)}/trials/${trialId}`, {
        acceptance: { peak_von_mises_stress: { min: null, max: 500 } },
        autoRerun: true,
      });
    },
  },
  'PUT /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/custom-outcomes': {
    action: 'trial.outcomes_changed',
    call: async (f) =>
      send(f.admin.browser, 'PUT', `${project(f)}/trials/${await trial(f)}/custom-outcomes`, {
        outcomes: [
          {
            key: null,
            definition: { source: 'object', label: 'Speed', field: 'velocity', particles: 'max', over: 'max' },
          },
        ],
      }),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/reports': {
    action: 'trial.report_requested',
    call: async (f) => f.admin.browser.postJson(`${project(f)}/trials/${await trial(f)}/reports`, {}),
  },
  'POST /api/devices/{deviceId}/projects/{projectId}/ssms/{ssmId}/measurement-orders': {
    action: 'measurement.ordered',
    call: async (f) => {
      await ssmBuilt(f);
      return f.admin.browser.postJson(`${project(f)}/ssms/${f.ssmId}/measurement-orders`, {
        definitionIds: [await defined(f)],
      });
    },
  },
  // After the order above (which waited for the model to be ready): the model made one built before landmark modes.
  'POST /api/devices/{deviceId}/projects/{projectId}/ssms/{ssmId}/rebuild': {
    action: 'ssm.build_started',
    call: async (f) => {
      await ssmBuilt(f);
      await asBuiltBeforeLandmarkModes(server, f.ssmId);
      return f.admin.browser.postJson(`${project(f)}/ssms/${f.ssmId}/rebuild`, {});
    },
  },
  // A model whose build failed (a row as the build job leaves one), retried: its build runs in the background.
  'POST /api/devices/{deviceId}/projects/{projectId}/ssms/{ssmId}/retry': {
    action: 'ssm.build_retried',
    call: async (f) => {
      const failed = await insertFailedSsm(server, {
        deviceId: f.deviceId,
        projectId: f.projectId,
        createdBy: f.admin.id,
        name: unique('Failed SSM'),
        configuration: { cohortIds: [f.tenId], excludedPatients: [], organs: ['lv_blood_pool'], phase: 'end-diastole' },
        shapeCount: 10,
        error: 'The shape model could not be built. Please create it again or contact support.',
      });
      return f.admin.browser.postJson(`${project(f)}/ssms/${failed}/retry`, {});
    },
  },
  // Last: its build job then holds the CPU pool (a few seconds for ten patients) after every other scenario.
  'POST /api/devices/{deviceId}/projects/{projectId}/ssms': {
    action: 'ssm.build_started',
    // Its build job runs in the background (its system event is not the route's).
    call: (f) =>
      f.admin.browser.postJson(`${project(f)}/ssms`, {
        cohortIds: [f.tenId],
        organs: ['aortic_root'],
        phase: 'end-diastole',
      }),
  },
};

/** Regulated changes that write no event yet, each with its TODO reason (none today: keep it that way). */
const notYetAudited: Record<string, string> = {};

/** Changes of no regulated record. */
const notRegulated: Record<string, string> = {
  'POST /api/auth/logout': 'ends the caller’s own session',
  'POST /api/notifications/seen': 'marks the caller’s own notifications seen',
  'POST /api/jobs/self-check': 'runs the job system’s self-check; changes no record',
  'PUT /api/me/selected-device': 'the caller’s own choice of workspace in the switcher',
  'PATCH /api/me/profile': 'the caller’s own profile (name, job title)',
  'PUT /api/me/picture': 'the caller’s own profile picture',
  'DELETE /api/me/picture': 'the caller’s own profile picture',
  'POST /api/devices/{deviceId}/cohorts/count': 'counts the patients criteria would match; stores nothing',
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/simulations/estimate':
    'estimates a simulation’s duration; stores nothing',
  'POST /api/analytics/ingest': 'product analytics of the caller’s own use',
  'POST /api/devices/{deviceId}/design-history/signatures/reauthentication':
    'begins a signing at the external identity provider; the signature is signature.signed when the callback completes it',
  // Personal drafts and byte transport (docs/decisions/regulated-record.md, "Not regulated"): what they become is
  // recorded when it is made (device.created, project.created, device_version.created, imaging.dataset_added).
  'PUT /api/onboarding': 'the caller’s own onboarding draft; the workspace made of it is device.created',
  'PUT /api/onboarding/picture':
    'the picture of the caller’s own onboarding draft (the workspace made of it carries it)',
  'DELETE /api/onboarding/picture': 'the picture of the caller’s own onboarding draft',
  'PUT /api/devices/{deviceId}/project-draft': 'the caller’s own project wizard draft; the project is project.created',
  'DELETE /api/devices/{deviceId}/project-draft': 'the caller’s own project wizard draft',
  'POST /api/devices/{deviceId}/project-draft/ssms':
    'an SSM configured in the caller’s own project wizard draft; it is ssm.build_started when the project is created',
  'POST /api/devices/{deviceId}/uploads':
    'starts a byte transfer (tus); the version or dataset made of it is recorded when it is made',
  'PATCH /api/devices/{deviceId}/uploads/{uploadId}': 'bytes of a transfer (tus); no record changes',
  'DELETE /api/devices/{deviceId}/uploads/{uploadId}':
    'cancels the caller’s own unfinished transfer; no record changes',
  'POST /api/devices/{deviceId}/uploads/{uploadId}/direct':
    'addresses for sending the caller’s own transfer straight to object storage; no record changes',
  'PUT /api/devices/{deviceId}/uploads/{uploadId}/direct/parts/{partNumber}':
    'a part of the caller’s own transfer received by object storage; no record changes',
  'POST /api/devices/{deviceId}/uploads/{uploadId}/direct/complete':
    'ends the caller’s own transfer; the dataset made of it is recorded when it is made',
  // Support conversations are the vendor's service record, not the customer's design record (issue 20's list).
  'PUT /api/support/screenshot': 'the screenshot of the caller’s own support request draft',
  'DELETE /api/support/screenshot': 'the screenshot of the caller’s own support request draft',
  'POST /api/support/requests': 'a support conversation with the vendor, kept in its own tables, not a design record',
  'POST /api/support/requests/{requestId}/messages': 'a message of a support conversation',
  'POST /api/support/inbox/{requestId}/answers': 'the support staff’s answer in a support conversation',
  'POST /api/support/inbox/{requestId}/close': 'the support staff close a support conversation',
  'POST /api/devices/{deviceId}/projects/{projectId}/analyses/{analysisId}/representativeness':
    'compares the cohort with a reference the caller sends; stores nothing',
  'POST /api/devices/{deviceId}/projects/{projectId}/analyses/{analysisId}/report':
    'answers the analysis report (PDF) made from the saved analysis; stores nothing',
};

/** The id of the newest event (events are numbered as they are written; the chain links them after the commit). */
const lastId = async () =>
  Number(
    (await server.context.db.executeSql('select coalesce(max(id), 0)::bigint as n from domain_events')).rows[0]!.n,
  );

beforeAll(async () => {
  server = await startTestServer();
  const admin = await signedIn(server);
  const { deviceId } = await createWorkspace(admin);
  const member = await joinedMember(server, admin, deviceId, 'member');
  // One small ready cohort on the project (its order job builds five patients' meshes, a few seconds).
  // And ten patients for an SSM (every one with end-diastole images), ordered at the same time.
  const [five, ten] = await Promise.all([
    orderCohort(admin.browser, deviceId, { size: 5 }),
    orderCohort(admin.browser, deviceId, {
      size: 10,
      criteria: criteriaWith((c) => ({ ...c, phases_of_heart_cycle: { 'end-diastole': 'selected' } })),
    }),
  ]);
  const cohortId = (await settled(admin.browser, deviceId, five.id)).id;
  const tenId = (await settled(admin.browser, deviceId, ten.id, 170_000)).id;
  const patientIds = await patientIdsOf(admin.browser, deviceId, cohortId);
  const projectId = await insertProject(server, {
    deviceId,
    team: [admin.id],
    name: 'Coverage valve',
    cohortIds: [cohortId, tenId],
  });
  const ssm = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/ssms`, {
    cohortIds: [tenId],
    organs: ['aortic_root', 'lv_blood_pool'],
    phase: 'end-diastole',
  });
  expect(ssm.status).toBe(201);
  const ssmId = ((await ssm.json()) as { id: string }).id;
  fixture = { admin, member, deviceId, projectId, cohortId, patientIds, tenId, ssmId };
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe('the audit trail covers the API', () => {
  it('has every mutating route of the OpenAPI document in exactly one list, and no list names a missing one', async () => {
    const document = (await (await new TestBrowser(server.origin).get('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const mutating = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .map((method) => method.toUpperCase())
        .filter((method): method is Method => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
        .map((method) => `${method} ${path}`),
    );
    expect(mutating.length).toBeGreaterThan(60);
    const lists = [Object.keys(audited), Object.keys(notYetAudited), Object.keys(notRegulated)];
    const unclassified = mutating.filter((route) => lists.filter((list) => list.includes(route)).length !== 1);
    expect(unclassified).toEqual([]);
    expect(lists.flat().filter((route) => !mutating.includes(route))).toEqual([]);
  });

  it.each(Object.entries(audited))(
    '%s writes exactly one event',
    async (_route, scenario) => {
      // Scenarios make their own objects first (through the API: those calls may write events of their own).
      const before = await lastId();
      const response = await scenario.call(fixture);
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      // The system's events (jobs of earlier scenarios finishing meanwhile) are not the route's.
      const { rows } = await server.context.db.executeSql(
        'select action, actor_id from domain_events where id > $1 and actor_id is not null order by id',
        [before],
      );
      // Set-up calls inside a scenario (a comment to edit, a member to remove) write their own events first.
      const last = rows[rows.length - 1];
      expect(last?.action).toBe(scenario.action);
      expect(last?.actor_id).toBe(scenario.actor?.() ?? fixture.admin.id);
      expect(rows.filter((row) => row.action === scenario.action)).toHaveLength(1);
      // A scenario may wait for a run to end (`ended` allows 150 s): the 60 s default timed out under load.
    },
    180_000,
  );
});
