import { createHash, randomBytes } from 'node:crypto';
import type { DeviceSummary, Invitation, MemberRole, Team, TeamMember } from '@insilico/contracts';
import { decide, grantOf } from '../policies/workspace.policy';
import type { DeviceRow } from '../repositories/device.repository';
import type { InvitationRow } from '../repositories/invitation.repository';
import type { Repositories, Transaction, UnitOfWork } from '../repositories/unit-of-work';
import { AuthThrottle, throttleRules, tooManyAttempts, type ThrottleKey } from './auth-throttle.service';
import { ServiceError } from './errors';
import { projectEvent, workspaceEvent } from '../events/kinds';
import { userPictureUrl } from './picture-urls';
import { ensureSeatFree } from './subscription.service';
import { toSummary, type Actor } from './workspace.mapper';
import { authorize } from './authorize';
import { callerGrant } from './caller-grant';

export interface TeamOptions {
  /** The public origin of the web app; the accept link points there. */
  publicUrl: string;
  /** How long an invitation link works (see docs/decisions/workspaces-invitations.md). */
  invitationTtlMs: number;
  now?: () => Date;
}

/** The page the mailed link opens; it posts the token to `POST /api/invitations/accept`. */
export const acceptInvitationPath = '/accept-invitation';
export const defaultInvitationTtlMs = 7 * 24 * 60 * 60_000;

export const roleWithArticle = (role: string) => (role === 'admin' ? 'an admin' : `a ${role}`);

/** The team page of a workspace, whichever workspace the admin has selected. */
export const manageTeamPath = (deviceId: string) => `/manage-team?device=${deviceId}`;

/** What an admin is told when someone accepted an invitation and waits for approval (notification and mail). */
export function pendingNews(device: DeviceRow, pending: Pick<Actor, 'fullName' | 'email'>, role: string) {
  return {
    title: `${pending.fullName} waits for your approval in "${device.name}"`,
    body: `${pending.fullName} (${pending.email}) accepted the invitation as ${roleWithArticle(role)}. Accept them, or remove them, on the team page.`,
    link: manageTeamPath(device.id),
  };
}

export async function activeAdmins(repositories: Pick<Repositories, 'devices'>, deviceId: string) {
  const members = await repositories.devices.listMembers(deviceId);
  return members.filter((member) => member.role === 'admin' && member.status === 'ok');
}

const notFoundMember = () => new ServiceError(404, 'not_found', 'No such member in this device workspace.');

/**
 * The team of a device workspace (spec §4 Membership): invited → (accepts the link) →
 * pending_approval → (an admin accepts) → ok. The last admin can be neither removed nor demoted.
 */
export class TeamService {
  private readonly now: () => Date;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly options: TeamOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async list(userId: string, deviceId: string): Promise<Team> {
    const grant = await callerGrant(userId, deviceId, (device, user) =>
      this.unitOfWork.repositories.devices.findMembership(device, user),
    );
    authorize('team.read', grant);
    const members = await this.unitOfWork.repositories.devices.listMembers(deviceId);
    const open = await this.unitOfWork.repositories.invitations.listOpen(deviceId, this.now());
    const items: TeamMember[] = [
      ...members.flatMap((member) => {
        const memberGrant = grantOf(member);
        return memberGrant
          ? [
              {
                userId: member.userId,
                invitationId: null,
                info: member.email,
                fullName: member.fullName,
                pictureUrl: userPictureUrl({ id: member.userId, ...member }),
                role: memberGrant.role,
                status: memberGrant.status,
              },
            ]
          : [];
      }),
      ...open.map((invitation) => ({
        userId: null,
        invitationId: invitation.id,
        info: invitation.email,
        fullName: null,
        pictureUrl: null,
        role: invitation.role,
        status: 'invited' as const,
      })),
    ];
    return { items, canManage: decide('team.manage', grant).allowed };
  }

  /** Normalises a list of invitees: lower-case e-mails, no duplicates, not the inviter. */
  checkInvitees(actor: Actor, invitees: { email: string; role: MemberRole }[]): { email: string; role: MemberRole }[] {
    const seen = new Map<string, MemberRole>();
    for (const invitee of invitees) {
      const email = invitee.email.trim().toLowerCase();
      if (email === actor.email.trim().toLowerCase())
        throw new ServiceError(400, 'invalid', 'You are in the team already; invite your colleagues.');
      if (seen.has(email)) throw new ServiceError(400, 'invalid', `${email} is in the list twice.`);
      seen.set(email, invitee.role);
    }
    return [...seen].map(([email, role]) => ({ email, role }));
  }

  async invite(actor: Actor, deviceId: string, input: { email: string; role: MemberRole }): Promise<Invitation> {
    const repositories = this.unitOfWork.repositories;
    authorize('team.manage', grantOf(await repositories.devices.findMembership(deviceId, actor.id)));
    const [invitee] = this.checkInvitees(actor, [input]);
    const email = invitee!.email;
    const members = await repositories.devices.listMembers(deviceId);
    if (members.some((member) => member.email.toLowerCase() === email))
      throw new ServiceError(409, 'already_member', 'This person is in the team already.');
    const open = await repositories.invitations.listOpen(deviceId, this.now());
    if (open.some((invitation) => invitation.email === email))
      throw new ServiceError(
        409,
        'already_invited',
        'This person has an open invitation already. Revoke it to send a new one.',
      );
    const device = await repositories.devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    return this.unitOfWork.run(async (tx) => {
      const invitation = await this.issue(tx, device, actor, email, invitee!.role);
      tx.events.record({
        ...workspaceEvent(actor.id, deviceId, 'team.invited', { type: 'invitation', id: invitation.invitationId }),
        after: { email, role: invitee!.role },
      });
      return invitation;
    });
  }

  /**
   * Creates the invitation and mails its single-use link (inside the caller's transaction); refused
   * when every seat of the workspace's plan is taken.
   */
  async issue(
    repositories: Repositories,
    device: DeviceRow,
    inviter: Actor,
    email: string,
    role: MemberRole,
  ): Promise<Invitation> {
    const token = randomBytes(32).toString('base64url');
    const createdAt = this.now();
    await ensureSeatFree(repositories, device.id, createdAt);
    const row = await repositories.invitations.insert({
      deviceId: device.id,
      email,
      role,
      tokenHash: hashToken(token),
      invitedBy: inviter.id,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + this.options.invitationTtlMs),
    });
    const link = `${this.options.publicUrl}${acceptInvitationPath}?token=${token}`;
    await repositories.mail.insert({
      to: email,
      subject: `You are invited to the device workspace ${device.name}`,
      text: [
        `${inviter.fullName} (${inviter.email}) invites you to the device workspace "${device.name}" as ${role}.`,
        '',
        `Accept the invitation: ${link}`,
        '',
        `The link works once and until ${formatDate(row.expiresAt)} (UTC). After you accept, an admin of the device approves your access.`,
      ].join('\n'),
    });
    return toInvitation(row);
  }

  async revoke(actorId: string, deviceId: string, invitationId: string): Promise<void> {
    const repositories = this.unitOfWork.repositories;
    authorize('team.manage', grantOf(await repositories.devices.findMembership(deviceId, actorId)));
    await this.unitOfWork.run(async (tx) => {
      const revoked = await tx.invitations.deleteOpen(deviceId, invitationId);
      if (!revoked) throw new ServiceError(404, 'not_found', 'No such open invitation in this device workspace.');
      tx.events.record({
        ...workspaceEvent(actorId, deviceId, 'team.invitation_revoked', { type: 'invitation', id: invitationId }),
        before: revoked,
      });
    });
  }

  /** The signed-in user follows the mailed link: the invitation is used up and they wait for approval. */
  /** Redeems an invitation link; links that are not valid are throttled per user and per client address. */
  async accept(actor: Actor, token: string, clientAddress: string): Promise<{ device: DeviceSummary }> {
    const repositories = this.unitOfWork.repositories;
    const throttle = new AuthThrottle(repositories.authAttempts);
    const keys: ThrottleKey[] = [
      { rule: throttleRules.invitationUser, key: actor.id },
      { rule: throttleRules.invitationAddress, key: clientAddress },
    ];
    const wait = await throttle.refusal(keys);
    if (wait !== null) throw tooManyAttempts(wait);
    const invitation = await repositories.invitations.findByTokenHash(hashToken(token));
    if (!invitation) {
      await throttle.count(keys);
      throw new ServiceError(
        404,
        'invitation_invalid',
        'This invitation link is not valid. Ask your device admin for a new invitation.',
      );
    }
    const now = this.now();
    if (invitation.acceptedAt) throw usedError();
    if (invitation.expiresAt <= now) throw expiredError();
    if (await repositories.devices.findMembership(invitation.deviceId, actor.id))
      throw new ServiceError(409, 'already_member', 'You are in this device workspace already.');
    const device = await repositories.devices.findById(invitation.deviceId);
    if (!device) throw new ServiceError(404, 'invitation_invalid', 'This invitation link is not valid.');
    const membership = await this.unitOfWork.run(async (tx) => {
      const consumed = await tx.invitations.consume(invitation.id, actor.id, now);
      if (!consumed) throw usedError();
      const created = await tx.devices.insertMembership({
        deviceId: invitation.deviceId,
        userId: actor.id,
        role: invitation.role,
        status: 'pending_approval',
      });
      if (!created) throw new ServiceError(409, 'already_member', 'You are in this device workspace already.');
      tx.events.record({
        ...workspaceEvent(actor.id, invitation.deviceId, 'team.invitation_accepted', {
          type: 'invitation',
          id: invitation.id,
        }),
        before: { email: invitation.email, role: invitation.role, accepted: false },
        after: { accepted: true, userId: actor.id, status: 'pending_approval' },
      });
      await this.mailAdminsOfPending(tx, device, actor, invitation.role);
      return created;
    });
    // The admins are told from the team.invitation_accepted event (services/team-notifications.ts).
    return { device: toSummary(device, grantOf(membership)!) };
  }

  /**
   * The workspace's admins (status ok) learn that someone waits for their approval, by mail (in the transaction
   * that makes the user pending, so both happen or neither) and by notification. Without it a pending user waits
   * until an admin happens to open the team page (issue 14).
   */
  private async mailAdminsOfPending(
    repositories: Repositories,
    device: DeviceRow,
    pending: Actor,
    role: string,
  ): Promise<void> {
    const news = pendingNews(device, pending, role);
    for (const admin of await activeAdmins(repositories, device.id)) {
      await repositories.mail.insert({
        to: admin.email,
        subject: news.title,
        text: [news.body, '', `Open the team: ${this.options.publicUrl}${news.link}`].join('\n'),
      });
    }
  }

  /** An admin accepts a pending user: pending_approval → ok. */
  async approve(actorId: string, deviceId: string, userId: string): Promise<TeamMember> {
    const devices = this.unitOfWork.repositories.devices;
    authorize('team.manage', grantOf(await devices.findMembership(deviceId, actorId)));
    const updated = await this.unitOfWork.run(async (tx) => {
      const approved = await tx.devices.updateMembership(deviceId, userId, { status: 'ok' }, 'pending_approval');
      if (approved)
        tx.events.record({
          ...workspaceEvent(actorId, deviceId, 'team.member_approved', { type: 'member', id: userId }),
          before: { status: 'pending_approval' },
          after: { status: 'ok', role: approved.role },
        });
      return approved;
    });
    if (!updated) {
      if (await devices.findMembership(deviceId, userId))
        throw new ServiceError(409, 'not_pending', 'This user is not waiting for approval.');
      throw notFoundMember();
    }
    // The user hears it from the team.member_approved event (services/team-notifications.ts).
    return this.member(deviceId, userId);
  }

  async changeRole(actorId: string, deviceId: string, userId: string, role: MemberRole): Promise<TeamMember> {
    authorize('team.manage', grantOf(await this.unitOfWork.repositories.devices.findMembership(deviceId, actorId)));
    await this.unitOfWork.run(async (tx) => {
      const admins = await tx.devices.lockActiveAdmins(deviceId);
      // Checked again under the lock: the actor may have been demoted in the meantime.
      authorize('team.manage', grantOf(await tx.devices.findMembership(deviceId, actorId)));
      const target = await tx.devices.findMembership(deviceId, userId);
      if (!target) throw notFoundMember();
      if (role !== 'admin' && isOnlyAdmin(admins, userId))
        throw new ServiceError(
          409,
          'last_admin',
          'The last admin of a device cannot be demoted. Make another team member admin first.',
        );
      await tx.devices.updateMembership(deviceId, userId, { role });
      tx.events.record({
        ...workspaceEvent(actorId, deviceId, 'team.role_changed', { type: 'member', id: userId }),
        before: { role: target.role },
        after: { role },
      });
    });
    return this.member(deviceId, userId);
  }

  /** Removes a member (or declines a pending user); their next request to the workspace is refused. */
  async remove(actorId: string, deviceId: string, userId: string): Promise<void> {
    authorize('team.manage', grantOf(await this.unitOfWork.repositories.devices.findMembership(deviceId, actorId)));
    await this.unitOfWork.run(async (tx) => {
      const admins = await tx.devices.lockActiveAdmins(deviceId);
      // Checked again under the lock: the actor may have been demoted in the meantime.
      authorize('team.manage', grantOf(await tx.devices.findMembership(deviceId, actorId)));
      if (isOnlyAdmin(admins, userId))
        throw new ServiceError(
          409,
          'last_admin',
          'The last admin of a device cannot be removed. Make another team member admin first.',
        );
      const before = await tx.devices.findMembership(deviceId, userId);
      if (!(await tx.devices.deleteMembership(deviceId, userId))) throw notFoundMember();
      tx.events.record({
        ...workspaceEvent(actorId, deviceId, 'team.member_removed', { type: 'member', id: userId }),
        before: { role: before?.role ?? null, status: before?.status ?? null },
      });
      // An admin removing themselves (another admin remains: checked above) hands their projects to that admin.
      const heir = actorId !== userId ? actorId : (admins.find((id) => id !== userId) ?? actorId);
      await leaveProjectTeams(tx, { actorId, deviceId, userId, heir });
    });
  }

  private async member(deviceId: string, userId: string): Promise<TeamMember> {
    const member = (await this.unitOfWork.repositories.devices.listMembers(deviceId)).find(
      (found) => found.userId === userId,
    );
    const grant = member ? grantOf(member) : null;
    if (!member || !grant) throw notFoundMember();
    return {
      userId,
      invitationId: null,
      info: member.email,
      fullName: member.fullName,
      pictureUrl: userPictureUrl({ id: userId, ...member }),
      role: grant.role,
      status: grant.status,
    };
  }
}

/**
 * Spec §6: a project team holds only people of the workspace. Whoever leaves the workspace leaves its project teams
 * in the same transaction, each recorded as on the project's team page; a project they were the only member of is
 * handed to `heir` (an admin), so it keeps somebody who may manage it (docs/decisions/project-teams-and-workspace.md).
 */
async function leaveProjectTeams(
  tx: Pick<Transaction, 'projects' | 'events'>,
  who: { actorId: string; deviceId: string; userId: string; heir: string },
): Promise<void> {
  const { actorId, deviceId, userId, heir } = who;
  for (const left of await tx.projects.leaveWorkspaceTeams(deviceId, userId, heir)) {
    if (left.handedTo)
      tx.events.record({
        ...projectEvent(actorId, deviceId, left.projectId, 'project.member_added'),
        after: { memberId: left.handedTo, name: left.name, reason: 'last_member_left_workspace' },
      });
    tx.events.record({
      ...projectEvent(actorId, deviceId, left.projectId, 'project.member_removed'),
      before: { memberId: userId },
      after: { reason: 'left_workspace' },
    });
  }
}

function isOnlyAdmin(activeAdmins: string[], userId: string): boolean {
  return activeAdmins.length === 1 && activeAdmins[0] === userId;
}

function usedError(): ServiceError {
  return new ServiceError(409, 'invitation_used', 'This invitation has been used already. Each link works once.');
}

function expiredError(): ServiceError {
  return new ServiceError(
    409,
    'invitation_expired',
    'This invitation has expired. Ask your device admin for a new invitation.',
  );
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function formatDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    invitationId: row.id,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
  };
}
