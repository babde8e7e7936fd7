import useSWR from 'swr';
import {
  acceptedInvitationSchema,
  invitationSchema,
  teamMemberSchema,
  teamEndpoints as endpoints,
  teamSchema,
  pathOf,
  type DeviceSummary,
  type Invitation,
  type MemberRole,
  type Team,
  type TeamMember,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR key (and URL) of a workspace's team. */
export const teamKey = (deviceId: string) => pathOf(endpoints.list, { deviceId });

const fetchTeam = (url: string): Promise<Team> => apiFetch(url, { schema: teamSchema });

/** `GET /api/devices/:id/team`: members, pending users and open invitations; `null` id waits. */
export function useTeam(deviceId: string | null) {
  return useSWR<Team, ApiError>(deviceId ? teamKey(deviceId) : null, fetchTeam);
}

/** `POST /api/devices/:id/invitations`: mails an accept link to the address. */
export function inviteColleague(deviceId: string, email: string, role: MemberRole): Promise<Invitation> {
  return apiCall(endpoints.invite, { deviceId }, { body: { email, role }, schema: invitationSchema });
}

export function revokeInvitation(deviceId: string, invitationId: string): Promise<undefined> {
  return apiCall(endpoints.revoke, { deviceId, invitationId });
}

/** An admin accepts a pending user (pending_approval → ok). */
export function approveMember(deviceId: string, userId: string): Promise<TeamMember> {
  return apiCall(endpoints.approve, { deviceId, userId }, { body: {}, schema: teamMemberSchema });
}

export function changeRole(deviceId: string, userId: string, role: MemberRole): Promise<TeamMember> {
  return apiCall(endpoints.changeRole, { deviceId, userId }, { body: { role }, schema: teamMemberSchema });
}

/** Removes a member or declines a pending user; their next request is refused. */
export function removeMember(deviceId: string, userId: string): Promise<undefined> {
  return apiCall(endpoints.remove, { deviceId, userId });
}

/** `POST /api/invitations/accept`: the signed-in user follows the mailed link. */
export async function acceptInvitation(token: string): Promise<DeviceSummary> {
  return (await apiCall(endpoints.accept, {}, { body: { token }, schema: acceptedInvitationSchema })).device;
}
