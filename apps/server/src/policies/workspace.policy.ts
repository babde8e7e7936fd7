import {
  memberRoles,
  membershipStatuses,
  noPermissionMessage,
  roleRefusalMessages,
  type MemberRole,
  type MembershipStatus,
} from '@insilico/contracts';

/**
 * Who may do what in a device workspace (spec §6). The one place that decides; services load the
 * caller's membership and ask here before they read or change anything of the workspace. Policies only decide:
 * they import nothing from services (lint), and services/authorize.ts turns a refusal into the HTTP error.
 */
export type WorkspaceAction =
  /** See the workspace in the switcher and select it. */
  | 'workspace.view'
  /** Read the team (/manage-team): read-only for members; guests may not (issue 3 journey (d)). */
  | 'team.read'
  /** Read the device details, company and data region (/manage-device, /company-info read-only). */
  | 'device.read'
  /** Change them and the device picture (admins). */
  | 'device.update'
  /** Invite, revoke invitations, accept pending users, change roles, remove members. */
  | 'team.manage'
  /** Create projects (issue 5 uses it). */
  | 'project.create'
  /** See the plan and its seats (/subscriptions): like the team, not for guests. */
  | 'subscription.read'
  /** Verify and export the audit trail (issue 20): admins. */
  | 'audit.read'
  /** Read the activity feed (issue 20): everyone; a guest's feed holds only their projects' events. */
  | 'activity.read';

/** The roles allowed each action; only memberships with status ok count. */
export const workspacePermissions: Readonly<Record<WorkspaceAction, readonly MemberRole[]>> = {
  'workspace.view': ['admin', 'member', 'guest'],
  'team.read': ['admin', 'member'],
  'device.read': ['admin', 'member', 'guest'],
  'device.update': ['admin'],
  'team.manage': ['admin'],
  'project.create': ['admin', 'member'],
  'subscription.read': ['admin', 'member'],
  'audit.read': ['admin'],
  'activity.read': ['admin', 'member', 'guest'],
};

/** The caller's standing in one workspace; null when they are not (or no longer) a member. */
export interface WorkspaceGrant {
  role: MemberRole;
  status: MembershipStatus;
}

/**
 * A policy's answer. A refusal says why: `not_found` (an outsider: the workspace does not exist for them),
 * `pending_approval` or `forbidden` (a member without the right), with the message the caller reads.
 */
export type Decision = { allowed: true } | Refusal;
export interface Refusal {
  allowed: false;
  code: 'not_found' | 'pending_approval' | 'forbidden';
  message: string;
}

const onlyAdminsMessage = 'Only an admin of this device can do this. Contact your device company admin.';

/**
 * Refusals other than "only an admin": project creation with the no-permission message of spec §6; the team and the
 * subscription, which are not about a project, with words about the workspace.
 */
const refusalMessages: Partial<Record<WorkspaceAction, string>> = {
  'project.create': noPermissionMessage,
  'team.read': roleRefusalMessages.team,
  'subscription.read': roleRefusalMessages.subscription,
};
const pendingMessage = 'Your access to this device is waiting for approval by a device admin.';
export const workspaceNotFoundMessage = 'This device workspace does not exist, or you are not a member of it.';

/**
 * Outsiders (no membership, or only an invitation) learn nothing about a workspace: its ids answer
 * 404 as if it did not exist (issue 3: "ids from another workspace answer 404").
 */
export function decide(action: WorkspaceAction, grant: WorkspaceGrant | null): Decision {
  if (!grant || grant.status === 'invited')
    return { allowed: false, code: 'not_found', message: workspaceNotFoundMessage };
  if (grant.status === 'pending_approval') return { allowed: false, code: 'pending_approval', message: pendingMessage };
  if (workspacePermissions[action].includes(grant.role)) return { allowed: true };
  return {
    allowed: false,
    code: 'forbidden',
    message: refusalMessages[action] ?? onlyAdminsMessage,
  };
}

/** Reads a stored membership as a grant (unknown values grant nothing). */
export function grantOf(membership: { role: string; status: string } | null): WorkspaceGrant | null {
  if (!membership) return null;
  const role = memberRoles.find((known) => known === membership.role);
  const status = membershipStatuses.find((known) => known === membership.status);
  return role && status ? { role, status } : null;
}

/**
 * Whether a signed-in user may create a workspace (onboarding, add device). For now every signed-in
 * user may; `/onboarding/no-access` is for a user who may not and has no invitation.
 * See docs/decisions/workspaces-who-creates.md.
 */
export function mayCreateWorkspace(_user: { id: string; email: string }): boolean {
  return true;
}
