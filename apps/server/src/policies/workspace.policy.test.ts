import { memberRoles, membershipStatuses, noPermissionMessage, roleRefusalMessages } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import {
  decide,
  grantOf,
  workspaceNotFoundMessage,
  workspacePermissions,
  type WorkspaceAction,
} from './workspace.policy';

const actions = Object.keys(workspacePermissions) as WorkspaceAction[];

describe('workspace policy', () => {
  it('allows exactly the table of spec §6 to members with status ok', () => {
    const allowed = Object.fromEntries(
      actions.map((action) => [action, memberRoles.filter((role) => decide(action, { role, status: 'ok' }).allowed)]),
    );
    expect(allowed).toEqual({
      'workspace.view': ['member', 'admin', 'guest'],
      'team.read': ['member', 'admin'],
      'device.read': ['member', 'admin', 'guest'],
      'device.update': ['admin'],
      'team.manage': ['admin'],
      'project.create': ['member', 'admin'],
      'subscription.read': ['member', 'admin'],
      // Issue 20: the audit trail's verifier and export for admins; the activity feed for all (scoped by project).
      'audit.read': ['admin'],
      'activity.read': ['member', 'admin', 'guest'],
    });
  });

  it('denies everything to non-members, invited and pending users; outsiders as if there were no workspace', () => {
    for (const action of actions) {
      expect(decide(action, null)).toEqual({ allowed: false, code: 'not_found', message: workspaceNotFoundMessage });
      for (const role of memberRoles) {
        expect(decide(action, { role, status: 'invited' }).allowed).toBe(false);
        expect(decide(action, { role, status: 'pending_approval' })).toMatchObject({
          allowed: false,
          code: 'pending_approval',
        });
      }
    }
    expect(membershipStatuses).toEqual(['invited', 'pending_approval', 'ok']);
  });

  it('refuses guests the team and the subscription in words about the workspace, not about a project', () => {
    expect(decide('team.read', { role: 'guest', status: 'ok' })).toEqual({
      allowed: false,
      code: 'forbidden',
      message: roleRefusalMessages.team,
    });
    expect(decide('subscription.read', { role: 'guest', status: 'ok' })).toEqual({
      allowed: false,
      code: 'forbidden',
      message: roleRefusalMessages.subscription,
    });
    for (const action of ['team.read', 'subscription.read'] as const) {
      const decision = decide(action, { role: 'guest', status: 'ok' });
      expect(decision.allowed ? '' : decision.message).not.toMatch(/project/);
    }
    expect(decide('project.create', { role: 'guest', status: 'ok' })).toMatchObject({ message: noPermissionMessage });
  });

  it('reads stored rows defensively', () => {
    expect(grantOf({ role: 'owner', status: 'ok' })).toBeNull();
    expect(grantOf({ role: 'guest', status: 'ok' })).toEqual({ role: 'guest', status: 'ok' });
  });
});
