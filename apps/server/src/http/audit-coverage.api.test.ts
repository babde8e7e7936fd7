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
import { insertProject } from '../../test/factories/project-rows';
import { insertSsmRoom, insertVersionWithModel } from '../../test/factories/room-rows';
import { insertSimulation } from '../../test/factories/simulation-rows';
import { putBytes, testPicture } from '../../test/helpers/pictures';
import { postBytes } from '../../test/fixtures/room.fixtures';

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

/** Routes whose event this test checks, by the document's method and path. */
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
};

const needsCohort =
  'writes its event in the change’s transaction, but this test cannot call it cheaply yet: it needs a ready cohort (a cohort order job, ~30 s)';

/** TODO(issue 20): regulated changes that write no domain event yet, or whose event this test does not call yet. */
const notYetAudited: Record<string, string> = {
  'POST /api/devices/{deviceId}/projects/{projectId}/cohorts': `TODO: ${needsCohort}`,
  'DELETE /api/devices/{deviceId}/projects/{projectId}/cohorts/{cohortId}': `TODO: ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/analyses': `TODO: ${needsCohort}`,
  'PATCH /api/devices/{deviceId}/projects/{projectId}/analyses/{analysisId}': `TODO: ${needsCohort}; the reason for an exclusion change is not asked yet`,
  'PUT /api/devices/{deviceId}/measurement-orders/{orderId}/patients/{patientId}/correction': `TODO: ${needsCohort} and a measurement order (reason for change required and recorded)`,
  'PUT /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/scene':
    'TODO: writes room.scene_saved, but a scene needs a processed device version (STL job) to call here',
  'POST /api/devices/{deviceId}/device-versions':
    'TODO: writes device_version.created, but needs finished uploads (tus) to call here',
  'PUT /api/onboarding': 'TODO: the onboarding draft writes no event yet',
  'POST /api/onboarding/complete':
    'TODO: writes device.created (the same DeviceService.create as POST /api/devices, checked here), but needs a completed onboarding draft to call here',
  'PUT /api/onboarding/picture': 'TODO: the onboarding picture writes no event yet',
  'DELETE /api/onboarding/picture': 'TODO: the onboarding picture writes no event yet',
  'POST /api/devices/{deviceId}/cohorts':
    'TODO: writes cohort.ordered (checked in cohorts.api.test.ts), but the order starts a mesh-building job, not cheap here',
  'POST /api/devices/{deviceId}/uploads':
    'TODO: uploads (tus) write no event yet; the version or dataset made of them should',
  'PATCH /api/devices/{deviceId}/uploads/{uploadId}': 'TODO: upload chunks write no event (the finished object should)',
  'DELETE /api/devices/{deviceId}/uploads/{uploadId}': 'TODO: cancelling an upload writes no event yet',
  'POST /api/devices/{deviceId}/imaging-datasets': 'TODO: imaging datasets write no event yet (imaging.service.ts)',
  'PUT /api/devices/{deviceId}/project-draft': 'TODO: the project draft is personal; decide whether it is regulated',
  'DELETE /api/devices/{deviceId}/project-draft': 'TODO: the project draft is personal; decide whether it is regulated',
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms':
    'TODO: writes room.created (checked in rooms.api.test.ts), but a room needs a patient of a ready cohort or a built SSM to call here',
  'POST /api/devices/{deviceId}/projects/{projectId}/rooms/{roomId}/simulations':
    'TODO: writes simulation.started (checked in simulations.api.test.ts), but a run needs a room on a ready cohort’s patient to call here',
  'POST /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}/retry':
    'TODO: writes simulation.retried (checked in simulations.api.test.ts), but it queues a run, which needs a stored case to call here',
  'PUT /api/devices/{deviceId}/projects/{projectId}/simulations/{simulationId}/particles/{object}/{particle}':
    'TODO: writes simulation.particle_named (checked in simulations.api.test.ts), but it needs a finished run’s results to call here',
  'POST /api/devices/{deviceId}/cohorts/{cohortId}/measurement-orders': `TODO: writes measurement.ordered (checked in measurements.api.test.ts), but ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/trials': `TODO: writes trial.started (checked in trials.api.test.ts), but ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/cancel': `TODO: writes trial.cancelled (checked in trials.api.test.ts), but ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/retry': `TODO: writes trial.retried (checked in trials.api.test.ts), but ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/trials/{trialId}/rerun': `TODO: writes trial.rerun, but ${needsCohort}`,
  'POST /api/devices/{deviceId}/projects/{projectId}/ssms': `TODO: writes ssm.build_started (checked in ssms.api.test.ts), but ${needsCohort} and starts a build job`,
  'PUT /api/support/screenshot': 'TODO: support requests are not design records; decide (support.service.ts)',
  'DELETE /api/support/screenshot': 'TODO: support requests are not design records; decide',
  'POST /api/support/requests': 'TODO: support requests are not design records; decide',
  'POST /api/support/requests/{requestId}/messages': 'TODO: support requests are not design records; decide',
  'POST /api/support/inbox/{requestId}/answers': 'TODO: support answers are not design records; decide',
  'POST /api/support/inbox/{requestId}/close': 'TODO: support requests are not design records; decide',
};

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
  'POST /api/devices/{deviceId}/projects/{projectId}/analyses/{analysisId}/representativeness':
    'compares the cohort with a reference the caller sends; stores nothing',
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
  const projectId = await insertProject(server, { deviceId, team: [admin.id], name: 'Coverage valve' });
  fixture = { admin, member, deviceId, projectId };
}, 120_000);
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

  it.each(Object.entries(audited))('%s writes exactly one event', async (_route, scenario) => {
    // Scenarios make their own objects first (through the API: those calls may write events of their own).
    const before = await lastId();
    const response = await scenario.call(fixture);
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    const { rows } = await server.context.db.executeSql(
      'select action, actor_id from domain_events where id > $1 order by id',
      [before],
    );
    // Set-up calls inside a scenario (a comment to edit, a member to remove) write their own events first.
    const last = rows[rows.length - 1];
    expect(last?.action).toBe(scenario.action);
    expect(last?.actor_id).toBe(scenario.actor?.() ?? fixture.admin.id);
    expect(rows.filter((row) => row.action === scenario.action)).toHaveLength(1);
  });
});
