import { type MemberRole } from '@insilico/contracts';
import { decide, type Decision, type WorkspaceGrant } from './workspace.policy';

/**
 * Who may do what with anatomical measurements (issue 23): they work on the workspace's cohorts, which members
 * and admins order and read, so the same roles define, order, correct and read measurements. Guests are refused
 * (their cohorts are only those of their projects; measurements on those are next) — docs/decisions/measurements.md.
 */
export type MeasurementAction = 'measurement.define' | 'measurement.order' | 'measurement.correct' | 'measurement.read';

export const measurementPermissions: Readonly<Record<MeasurementAction, readonly MemberRole[]>> = {
  'measurement.define': ['admin', 'member'],
  'measurement.order': ['admin', 'member'],
  'measurement.correct': ['admin', 'member'],
  'measurement.read': ['admin', 'member'],
};

/** The refusal of a measurement action to a guest (names the workspace, as ordering cohorts does). */
export const measurementGuestRefusal =
  'Guests cannot use measurements in this device workspace. Contact your device company admin to check your role in this device.';

/** Decides an action: outsiders as the workspace decides (404/403), then the role table. */
export function decideMeasurement(action: MeasurementAction, grant: WorkspaceGrant | null): Decision {
  const membership = decide('workspace.view', grant);
  if (!membership.allowed || !grant) return membership;
  if (measurementPermissions[action].includes(grant.role)) return { allowed: true };
  return { allowed: false, code: 'forbidden', message: measurementGuestRefusal };
}
