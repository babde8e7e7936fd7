import type { MemberRole, MembershipStatus, TeamMember } from '@insilico/contracts';

/** How a membership status reads in the team table (spec §3: invited, pending_approval, ok). */
export const statusLabels: Record<MembershipStatus, string> = {
  invited: 'Invited',
  pending_approval: 'Pending approval',
  ok: 'OK',
};

/** A stable React key: the user, or the invitation for someone who has not accepted yet. */
export function rowKey(member: TeamMember): string {
  return member.userId ?? `invitation:${member.invitationId ?? member.info}`;
}

/** The name a row shows: the full name, or the e-mail for an invitation nobody accepted yet. */
export function displayName(member: TeamMember): string {
  return member.fullName?.trim() || member.info;
}

/** Rows whose name or e-mail contains the search text (case-insensitive; blank finds all). */
export function searchTeam(items: readonly TeamMember[], search: string): TeamMember[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...items];
  return items.filter(
    (member) => member.info.toLowerCase().includes(needle) || (member.fullName ?? '').toLowerCase().includes(needle),
  );
}

/** Pending users first (they wait for an admin), then members, then open invitations; by name within. */
export function orderTeam(items: readonly TeamMember[]): TeamMember[] {
  const rank: Record<MembershipStatus, number> = { pending_approval: 0, ok: 1, invited: 2 };
  return [...items].sort(
    (a, b) =>
      rank[a.status] - rank[b.status] ||
      displayName(a).localeCompare(displayName(b), 'en', { sensitivity: 'base' }) ||
      a.info.localeCompare(b.info),
  );
}

/** One page of rows (0-based page); a page past the end shows the last one. */
export function pageOf<T>(rows: readonly T[], page: number, rowsPerPage: number): { rows: T[]; page: number } {
  const last = Math.max(Math.ceil(rows.length / rowsPerPage) - 1, 0);
  const shown = Math.min(Math.max(page, 0), last);
  return { rows: rows.slice(shown * rowsPerPage, (shown + 1) * rowsPerPage), page: shown };
}

export type TeamAction = 'changeRole' | 'accept' | 'decline' | 'remove' | 'revoke';

/** What an admin may do with a row (the server decides; this only offers the buttons). */
export function actionsFor(member: TeamMember, canManage: boolean, ownUserId: string): TeamAction[] {
  if (!canManage) return [];
  if (member.status === 'invited') return ['revoke'];
  if (member.status === 'pending_approval') return ['accept', 'decline'];
  // Admins change their own role too (the server refuses to demote the last admin); removing
  // oneself is leaving, which is not offered here.
  return member.userId === ownUserId ? ['changeRole'] : ['changeRole', 'remove'];
}

/** What each role may do (spec §6), shown where a role is chosen. */
export const roleDescriptions: Record<MemberRole, string> = {
  member: 'Creates projects and has full control of the projects they are in.',
  admin: 'Manages the device team, invites users and accepts pending users; creates projects.',
  guest: 'Sees only the projects they were added to; cannot create projects.',
};
