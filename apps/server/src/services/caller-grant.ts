import { notedMembership } from '../events/request-context';
import { grantOf, type WorkspaceGrant } from '../policies/workspace.policy';

/** Reads a user's stored membership of a workspace (null: not a member). */
export type MembershipRead = (deviceId: string, userId: string) => Promise<{ role: string; status: string } | null>;

/**
 * The caller's standing in a workspace, for the authorization at the start of a request: the membership read with
 * their session when the request's path addresses this workspace (one statement fewer on every workspace request),
 * read now with `read` otherwise (docs/decisions/session-and-membership.md).
 */
export async function callerGrant(
  userId: string,
  deviceId: string,
  read: MembershipRead,
): Promise<WorkspaceGrant | null> {
  const noted = notedMembership(userId, deviceId);
  return grantOf(noted === undefined ? await read(deviceId, userId) : noted);
}
