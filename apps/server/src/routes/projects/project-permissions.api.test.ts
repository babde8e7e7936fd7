import { and, eq } from 'drizzle-orm';
import type { ProjectOverview } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMembers } from '../../db/schema';
import type { TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { createWorkspace, principals, send, signedIn, type Principal } from '../../../test/fixtures/workspace.fixtures';
import { insertProject, setProjectStatus } from '../../../test/factories/project-rows';

/**
 * The permission table of the projects API (issue 5; docs/decisions/project-permissions.md): every endpoint for
 * every principal, on a project whose team has the guest, the member and the admin ("on team") and on one whose
 * team has none of them ("off team"). Each cell is an explicit allow (2xx) or deny (401 / 403 / 404).
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let onTeam = '';
let offTeam = '';
let candidateId = '';
let foreignProject = '';

beforeAll(async () => {
  const world = await projectWorld({
    people: { ...principalPeople, owner: 'member', candidate: 'member' },
    project: { team: ['admin', 'member', 'guest', 'owner'], name: 'On the team' },
  });
  ({ server, deviceId, projectId: onTeam } = world);
  browsers = browsersOf(world);
  const { owner, candidate } = world.people;
  candidateId = candidate.id;
  offTeam = await insertProject(server, { deviceId, team: [owner.id], name: 'Off the team' });
  const stranger = await signedIn(server);
  const foreign = await createWorkspace(stranger);
  foreignProject = await insertProject(server, { deviceId: foreign.deviceId, team: [stranger.id] });
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser, projectId: string) => Promise<Response>;
interface Row {
  name: string;
  call: Call;
  /** Puts the project back before each principal's call (the calls that change it). */
  before?: (projectId: string) => Promise<void>;
  on: Partial<Record<Principal, number>>;
  off: Partial<Record<Principal, number>>;
}

const x = 401;
const deny = { anonymous: x, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const path = (projectId: string) => `/api/devices/${deviceId}/projects/${projectId}`;
const readable = { guest: 200, member: 200, admin: 200 };
const teamOnly = { guest: 403, member: 200, admin: 200 };
const nobody = { guest: 403, member: 403, admin: 403 };

async function dropCandidate(projectId: string) {
  await server.context.db.orm
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, candidateId)));
}
async function addCandidate(projectId: string) {
  await server.context.db.orm.insert(projectMembers).values({ projectId, userId: candidateId }).onConflictDoNothing();
}

const table: Row[] = [
  {
    name: 'GET /api/devices/:id/projects',
    call: (b) => b.get(`/api/devices/${deviceId}/projects`),
    on: readable,
    off: readable,
  },
  {
    name: 'GET /api/devices/:id/projects/overview',
    call: (b) => b.get(`/api/devices/${deviceId}/projects/overview`),
    on: readable,
    off: readable,
  },
  { name: 'GET .../projects/:projectId', call: (b, p) => b.get(path(p)), on: readable, off: teamOnly },
  {
    name: 'POST .../projects/:projectId/status',
    call: (b, p) => b.postJson(`${path(p)}/status`, { status: 'completed', reason: 'Study finished' }),
    before: (p) => setProjectStatus(server, p, 'active'),
    on: teamOnly,
    off: nobody,
  },
  { name: 'GET .../projects/:projectId/team', call: (b, p) => b.get(`${path(p)}/team`), on: readable, off: teamOnly },
  {
    name: 'POST .../projects/:projectId/team',
    call: (b, p) => b.postJson(`${path(p)}/team`, { userId: candidateId }),
    before: dropCandidate,
    on: { guest: 403, member: 201, admin: 201 },
    off: nobody,
  },
  {
    name: 'DELETE .../projects/:projectId/team/:userId',
    call: (b, p) => send(b, 'DELETE', `${path(p)}/team/${candidateId}`),
    before: addCandidate,
    on: teamOnly,
    off: nobody,
  },
  { name: 'GET .../projects/:projectId/stats', call: (b, p) => b.get(`${path(p)}/stats`), on: readable, off: teamOnly },
];

async function statuses(row: Row, projectId: string, prepare = true): Promise<Record<Principal, number>> {
  const actual = {} as Record<Principal, number>;
  for (const principal of principals) {
    if (prepare) await row.before?.(projectId);
    actual[principal] = (await row.call(browsers[principal], projectId)).status;
  }
  return actual;
}

describe('permission table of the projects API', () => {
  it.each(table)('$name on a project the caller is on', async (row) => {
    expect(await statuses(row, onTeam)).toEqual({ ...deny, ...row.on });
  });

  it.each(table)('$name on a project the caller is not on', async (row) => {
    expect(await statuses(row, offTeam)).toEqual({ ...deny, ...row.off });
  });

  it.each(table.slice(2))('$name with an unknown id or one of another workspace answers 404', async (row) => {
    for (const projectId of ['00000000-0000-4000-8000-000000000000', foreignProject]) {
      const actual = await statuses(row, projectId, false);
      expect(actual).toEqual({ ...deny, guest: 404, member: 404, admin: 404 });
    }
  });

  it('refuses guests with the spec message and lists them only their projects', async () => {
    const refused = await browsers.guest.get(path(offTeam));
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'You do not have permission to access this project. Contact your device company admin to check whether you have been added to this device or project.',
    );
    const list = (await (await browsers.guest.get(`/api/devices/${deviceId}/projects`)).json()) as {
      items: { id: string }[];
      canCreate: boolean;
    };
    expect(list.items.map((item) => item.id)).toEqual([onTeam]);
    expect(list.canCreate).toBe(false);
    const memberList = (await (await browsers.member.get(`/api/devices/${deviceId}/projects`)).json()) as {
      items: { id: string }[];
      canCreate: boolean;
    };
    expect(memberList.items.map((item) => item.id).sort()).toEqual([onTeam, offTeam].sort());
    expect(memberList.canCreate).toBe(true);
    // The overview's first screen says the same.
    const overview = async (person: 'guest' | 'member') =>
      (await (await browsers[person].get(`/api/devices/${deviceId}/projects/overview`)).json()) as ProjectOverview;
    const ids = (answer: ProjectOverview) => answer.groups.flatMap((group) => group.items.map((item) => item.id));
    const guestOverview = await overview('guest');
    expect(ids(guestOverview)).toEqual([onTeam]);
    expect(guestOverview).toMatchObject({ total: 1, canCreate: false });
    expect(ids(await overview('member')).sort()).toEqual([onTeam, offTeam].sort());
  });
});
