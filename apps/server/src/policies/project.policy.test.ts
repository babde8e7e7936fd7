import { memberRoles, noPermissionMessage } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { decideProject, projectPermissions, seesAllProjects, type ProjectAction } from './project.policy';
import { workspaceNotFoundMessage } from './workspace.policy';

const actions = Object.keys(projectPermissions) as ProjectAction[];

function allowedRoles(action: ProjectAction, onTeam: boolean): string[] {
  return memberRoles.filter((role) => decideProject(action, { grant: { role, status: 'ok' }, onTeam }).allowed);
}

describe('project policy', () => {
  it('allows exactly the recorded table on and off the team', () => {
    const table = Object.fromEntries(
      actions.map((action) => [action, { off: allowedRoles(action, false), on: allowedRoles(action, true) }]),
    );
    expect(table).toEqual({
      'project.read': { off: ['member', 'admin'], on: ['member', 'admin', 'guest'] },
      'project.comment': { off: [], on: ['member', 'admin', 'guest'] },
      'project.moderate': { off: ['admin'], on: ['admin'] },
      'project.manage': { off: [], on: ['member', 'admin'] },
      'project.work': { off: [], on: ['member', 'admin'] },
      'project.sign': { off: [], on: ['member', 'admin'] },
    });
  });

  it('answers outsiders as if the workspace did not exist, and refuses pending users', () => {
    for (const action of actions) {
      expect(decideProject(action, { grant: null, onTeam: false })).toEqual({
        allowed: false,
        code: 'not_found',
        message: workspaceNotFoundMessage,
      });
      expect(
        decideProject(action, { grant: { role: 'admin', status: 'pending_approval' }, onTeam: true }),
      ).toMatchObject({
        allowed: false,
        code: 'pending_approval',
      });
    }
  });

  it('refuses with the no-permission message of spec §6', () => {
    expect(decideProject('project.read', { grant: { role: 'guest', status: 'ok' }, onTeam: false })).toEqual({
      allowed: false,
      code: 'forbidden',
      message: noPermissionMessage,
    });
  });

  it('lets admins and members, not guests, see every project', () => {
    expect(memberRoles.filter((role) => seesAllProjects({ role, status: 'ok' }))).toEqual(['member', 'admin']);
  });
});
