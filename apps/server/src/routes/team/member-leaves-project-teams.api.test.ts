import type { ProjectTeam } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from '../../../test/factories/project-rows';
import { eventsOf } from '../../../test/helpers/domain-events';
import { projectWorld, type ProjectWorld } from '../../../test/fixtures/project-world';
import type { TestBrowser } from '../../../test/helpers/browser';
import type { TestServer } from '../../../test/helpers/test-server';
import { json, send, signedIn } from '../../../test/fixtures/workspace.fixtures';

/**
 * Spec §6 "The project team may contain only users already in the device workspace": whoever is removed from the
 * workspace leaves its project teams with it, and a project they were alone on is handed to the removing admin
 * (docs/decisions/project-teams-and-workspace.md).
 */
let world: ProjectWorld<'leaver' | 'colleague', never>;
beforeAll(async () => {
  world = await projectWorld({ people: { leaver: 'member', colleague: 'member' } });
});
afterAll(async () => {
  await world?.server.stop();
});

const teamIds = async (browser: TestBrowser, projectId: string) => {
  const response = await browser.get(`/api/devices/${world.deviceId}/projects/${projectId}/team`);
  expect(response.status).toBe(200);
  return (await json<ProjectTeam>(response)).items.map((person) => person.id);
};

const notificationsOf = async (server: TestServer, userId: string) =>
  (await server.context.notifications.list(userId, 50, null)).items;

describe('a member removed from the workspace', () => {
  it('leaves every project team; a project they were alone on passes to the admin who removed them', async () => {
    const { server, admin, deviceId, people } = world;
    const { leaver, colleague } = people;
    const alone = await insertProject(server, { deviceId, team: [leaver.id], name: 'Alone' });
    const shared = await insertProject(server, { deviceId, team: [colleague.id, leaver.id], name: 'Shared' });

    expect((await send(admin.browser, 'DELETE', `/api/devices/${deviceId}/members/${leaver.id}`)).status).toBe(204);

    expect(await teamIds(admin.browser, alone)).toEqual([admin.id]);
    expect(await teamIds(colleague.browser, shared)).toEqual([colleague.id]);
    const recorded = (await eventsOf(server, 'project', alone)).map((event) => [event.action, event.after]);
    expect(recorded).toContainEqual([
      'project.member_added',
      expect.objectContaining({ memberId: admin.id, reason: 'last_member_left_workspace' }),
    ]);
    expect(recorded).toContainEqual(['project.member_removed', { reason: 'left_workspace' }]);
    expect((await eventsOf(server, 'project', shared)).map((event) => event.action)).toContain(
      'project.member_removed',
    );
  });

  it('hears nothing more of a project whose team still lists them from before', async () => {
    const { server, deviceId, people } = world;
    const former = await signedIn(server);
    const projectId = await insertProject(server, { deviceId, team: [people.colleague.id, former.id] });
    const moved = await people.colleague.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/status`, {
      status: 'completed',
      reason: 'Done',
    });
    expect(moved.status).toBe(200);
    expect((await notificationsOf(server, former.id)).filter((item) => item.link?.includes(projectId))).toEqual([]);
  });
});
