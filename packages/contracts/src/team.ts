import { z } from 'zod';
import { deviceParamsSchema, deviceSummarySchema, memberRoleSchema, membershipStatusSchema } from './devices';
import { endpoint } from './endpoint';
import { text } from './text';

/** One row of the team page: a member (pending or ok) or an open invitation (status invited). */
export const teamMemberSchema = z.object({
  /** Null for an invitation nobody has accepted yet. */
  userId: text().nullable(),
  invitationId: text().nullable(),
  /** The e-mail (spec §3 User `info`). */
  info: text(),
  fullName: text().nullable(),
  /** The member's picture (thumbnail) for the avatar; null: initials. Null for invitations. */
  pictureUrl: text().nullable(),
  role: memberRoleSchema,
  status: membershipStatusSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamSchema = z.object({
  items: z.array(teamMemberSchema),
  /** Whether the signed-in user may manage the team (admins); others see it read-only. */
  canManage: z.boolean(),
});
export type Team = z.infer<typeof teamSchema>;

/** `POST /api/devices/:deviceId/invitations`. */
export const inviteSchema = z.object({
  email: z.email().max(254),
  role: memberRoleSchema.default('member'),
});
export type Invite = z.input<typeof inviteSchema>;

export const invitationSchema = z.object({
  invitationId: text(),
  email: text(),
  role: memberRoleSchema,
  expiresAt: text(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** `POST /api/invitations/accept`: the token of the mailed link `/accept-invitation?token=…`. */
export const acceptInvitationSchema = z.object({ token: text().min(20).max(200) });
export const acceptedInvitationSchema = z.object({ device: deviceSummarySchema });

export const memberParamsSchema = z.object({ deviceId: z.uuid(), userId: z.uuid() });
export const invitationParamsSchema = z.object({ deviceId: z.uuid(), invitationId: z.uuid() });

/** `PATCH /api/devices/:deviceId/members/:userId`. */
export const changeRoleSchema = z.object({ role: memberRoleSchema });

const teamPath = '/api/devices/:deviceId/team';
const invitationsPath = '/api/devices/:deviceId/invitations';
const memberPath = '/api/devices/:deviceId/members/:userId';

/** The team of a device workspace (docs/decisions/endpoints-in-contracts.md). */
export const teamEndpoints = {
  list: endpoint({ method: 'GET', path: teamPath, params: deviceParamsSchema, response: { 200: teamSchema } }),
  invite: endpoint({
    method: 'POST',
    path: invitationsPath,
    params: deviceParamsSchema,
    body: inviteSchema,
    response: { 201: invitationSchema },
  }),
  revoke: endpoint({ method: 'DELETE', path: `${invitationsPath}/:invitationId`, params: invitationParamsSchema }),
  accept: endpoint({
    method: 'POST',
    path: '/api/invitations/accept',
    body: acceptInvitationSchema,
    response: { 200: acceptedInvitationSchema },
  }),
  approve: endpoint({
    method: 'POST',
    path: `${memberPath}/approve`,
    params: memberParamsSchema,
    response: { 200: teamMemberSchema },
  }),
  changeRole: endpoint({
    method: 'PATCH',
    path: memberPath,
    params: memberParamsSchema,
    body: changeRoleSchema,
    response: { 200: teamMemberSchema },
  }),
  remove: endpoint({ method: 'DELETE', path: memberPath, params: memberParamsSchema }),
};
