import { noPermissionMessage, roleRefusalMessages, type MemberRole } from '@insilico/contracts';
import { decide, type Decision, type WorkspaceGrant } from './workspace.policy';

/**
 * Who may do what with the patient cohorts of a workspace (issue 4): members and admins order and read every
 * cohort; guests read only cohorts attached to a project they are on (`project_cohorts` of a project whose team
 * has them; `CohortService` computes it) — see docs/decisions/cohort-permissions.md.
 */
export type CohortAction =
  /** Count matching patients and place an order (the live count belongs to ordering). */
  | 'cohort.order'
  /** Ask support for a pathology the database lacks. */
  | 'cohort.request-pathology'
  /** List, read, export a cohort and view its patients and meshes. */
  | 'cohort.read';

/** Roles that act on every cohort of the workspace (membership status ok). */
export const cohortPermissions: Readonly<Record<CohortAction, readonly MemberRole[]>> = {
  'cohort.order': ['admin', 'member'],
  'cohort.request-pathology': ['admin', 'member'],
  'cohort.read': ['admin', 'member'],
};

/** What the policy needs to know about one cohort. */
export interface CohortVisibility {
  /** True when the cohort is attached to a project the caller is on. */
  onCallersProject: boolean;
}

/** Decides an action; for `cohort.read` of one cohort pass its visibility (guests need it). */
export function decideCohort(action: CohortAction, grant: WorkspaceGrant | null, cohort?: CohortVisibility): Decision {
  const membership = decide('workspace.view', grant);
  if (!membership.allowed || !grant) return membership;
  if (cohortPermissions[action].includes(grant.role)) return { allowed: true };
  if (action === 'cohort.read' && grant.role === 'guest' && cohort?.onCallersProject) return { allowed: true };
  // Ordering is a workspace action (no project involved): its refusal names the workspace.
  const message = action === 'cohort.read' ? noPermissionMessage : roleRefusalMessages.cohortOrder;
  return { allowed: false, code: 'forbidden', message };
}

/** Whether the caller may list the workspace's cohorts at all (guests: yes, but only see their projects' ones). */
export function mayListCohorts(grant: WorkspaceGrant | null): grant is WorkspaceGrant {
  return decide('workspace.view', grant).allowed;
}
