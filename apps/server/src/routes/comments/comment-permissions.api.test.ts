import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { browsersOf, principalPeople, projectWorld } from '../../../test/fixtures/project-world';
import { json, principals, send, type Principal } from '../../../test/fixtures/workspace.fixtures';
import { insertComment } from '../../../test/factories/comment-rows';
import { insertProject } from '../../../test/factories/project-rows';
import { commentsPath, postComment } from '../../../test/fixtures/comment.fixtures';

/**
 * The permission table of the comment API (issue 5 item 4): every endpoint for every principal, on a project whose
 * team holds the admin, the member and the guest, and on one whose team holds none of them. Each cell is an
 * explicit allow or deny (docs/decisions/project-permissions.md: read, comment, moderate).
 */
let server: TestServer;
let browsers = {} as Record<Principal, TestBrowser>;
let deviceId = '';
let onTeam = '';
let offTeam = '';
let memberId = '';
let adminComment = '';
let counter = 0;

beforeAll(async () => {
  const world = await projectWorld({ people: principalPeople, project: { team: ['admin', 'member', 'guest'] } });
  ({ server, deviceId, projectId: onTeam } = world);
  browsers = browsersOf(world);
  memberId = world.people.member.id;
  offTeam = await insertProject(server, { deviceId, team: [] });
  adminComment = (await postComment(browsers.admin, deviceId, onTeam, 'The admin wrote this')).id;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

type Call = (browser: TestBrowser) => Promise<Response>;
const x = 401; // anonymous
const deny = { anonymous: x, nonMember: 404, invited: 404, pending: 403, otherAdmin: 404 } as const;
const path = (projectId: string) => commentsPath(deviceId, projectId);
const unknownId = '00000000-0000-4000-8000-000000000000';
/** A fresh comment of the member, so every principal's delete meets one that still exists. */
const memberComment = async () => (await postComment(browsers.member, deviceId, onTeam, `Comment ${++counter}`)).id;

const table: [string, Call, Record<Principal, number>][] = [
  ['GET comments (on team)', (b) => b.get(path(onTeam)), { ...deny, guest: 200, member: 200, admin: 200 }],
  [
    'GET comments/mentionable (on team)',
    (b) => b.get(`${path(onTeam)}/mentionable`),
    { ...deny, guest: 200, member: 200, admin: 200 },
  ],
  [
    'POST comments (on team)',
    (b) => b.postJson(path(onTeam), { body: 'Looks good' }),
    { ...deny, guest: 201, member: 201, admin: 201 },
  ],
  [
    "PATCH the admin's comment (on team)",
    (b) => send(b, 'PATCH', `${path(onTeam)}/${adminComment}`, { body: `Edited ${++counter}` }),
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    "DELETE the member's comment (on team)",
    async (b) => send(b, 'DELETE', `${path(onTeam)}/${await memberComment()}`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  ['GET comments (off team)', (b) => b.get(path(offTeam)), { ...deny, guest: 403, member: 200, admin: 200 }],
  [
    'GET comments/mentionable (off team)',
    (b) => b.get(`${path(offTeam)}/mentionable`),
    { ...deny, guest: 403, member: 200, admin: 200 },
  ],
  [
    'POST comments (off team)',
    (b) => b.postJson(path(offTeam), { body: 'Looks good' }),
    { ...deny, guest: 403, member: 403, admin: 403 },
  ],
  [
    "DELETE the member's earlier comment (off team: only admins remove)",
    async (b) => send(b, 'DELETE', `${path(offTeam)}/${await insertComment(server, offTeam, memberId)}`),
    { ...deny, guest: 403, member: 403, admin: 200 },
  ],
  [
    'GET comments of an unknown project',
    (b) => b.get(path(unknownId)),
    { ...deny, guest: 404, member: 404, admin: 404 },
  ],
  [
    'DELETE an unknown comment',
    (b) => send(b, 'DELETE', `${path(onTeam)}/${unknownId}`),
    { ...deny, guest: 404, member: 404, admin: 404 },
  ],
];

describe('permission table of the comment API', () => {
  it.each(table)('%s', async (_name, call, expected) => {
    const actual = {} as Record<Principal, number>;
    for (const principal of principals) actual[principal] = (await call(browsers[principal])).status;
    expect(actual).toEqual(expected);
  });

  it('answers 404 for a comment of another project, even to its admin', async () => {
    const elsewhere = await insertProject(server, { deviceId, team: [] });
    const foreign = await insertComment(server, elsewhere, memberId);
    const response = await send(browsers.admin, 'DELETE', `${path(onTeam)}/${foreign}`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'This comment does not exist in this project.',
    );
  });

  it('tells each caller what they may do', async () => {
    const forGuest = await json<{ canComment: boolean; canModerate: boolean }>(await browsers.guest.get(path(onTeam)));
    expect(forGuest).toMatchObject({ canComment: true, canModerate: false });
    const forMemberOff = await json<{ canComment: boolean }>(await browsers.member.get(path(offTeam)));
    expect(forMemberOff).toMatchObject({ canComment: false, canModerate: false });
    const forAdminOff = await json<{ canComment: boolean }>(await browsers.admin.get(path(offTeam)));
    expect(forAdminOff).toMatchObject({ canComment: false, canModerate: true });
  });
});
