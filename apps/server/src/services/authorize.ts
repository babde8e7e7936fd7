import { decideCohort, type CohortAction, type CohortVisibility } from '../policies/cohort.policy';
import { decideMeasurement, type MeasurementAction } from '../policies/measurement.policy';
import { decideProject, type ProjectAction, type ProjectStanding } from '../policies/project.policy';
import { decide, type Refusal, type WorkspaceAction, type WorkspaceGrant } from '../policies/workspace.policy';
import { ServiceError } from './errors';

/**
 * Policies decide; this turns their refusals into the one error services throw. Outsiders answer 404 (ids of a
 * workspace they are not in reveal nothing), members without the right (or still pending approval) 403.
 */
function refusalError(refusal: Refusal): ServiceError {
  return new ServiceError(refusal.code === 'not_found' ? 404 : 403, refusal.code, refusal.message);
}

/** Throws 404 for outsiders and 403 for members, unless the grant allows the workspace action. */
export function authorize(action: WorkspaceAction, grant: WorkspaceGrant | null): asserts grant is WorkspaceGrant {
  const decision = decide(action, grant);
  if (!decision.allowed) throw refusalError(decision);
}

/** Throws 404 for outsiders and 403 for members and guests without the right on the project. */
export function authorizeProject(
  action: ProjectAction,
  standing: ProjectStanding,
): asserts standing is ProjectStanding & { grant: WorkspaceGrant } {
  const decision = decideProject(action, standing);
  if (!decision.allowed) throw refusalError(decision);
}

/** Throws 404 for outsiders and 403 for members, unless the cohort action is allowed. */
export function authorizeCohort(
  action: CohortAction,
  grant: WorkspaceGrant | null,
  cohort?: CohortVisibility,
): asserts grant is WorkspaceGrant {
  const decision = decideCohort(action, grant, cohort);
  if (!decision.allowed) throw refusalError(decision);
}

/** Throws 404 for outsiders and 403 for members and guests without the measurement right. */
export function authorizeMeasurement(
  action: MeasurementAction,
  grant: WorkspaceGrant | null,
): asserts grant is WorkspaceGrant {
  const decision = decideMeasurement(action, grant);
  if (!decision.allowed) throw refusalError(decision);
}
