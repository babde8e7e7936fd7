/**
 * Change impact in the design history (issue 20 item 4): evidence made with one device version is "to be re-run"
 * once another version has come into the project after it, until it is re-run. Decided from the trail's events
 * alone, so the answer is the same whenever it is asked.
 */

/** Evidence whose event names the device version it was made with (`after.deviceVersionId`). */
export const versionedEvidenceActions: readonly string[] = ['simulation.started', 'trial.started', 'trial.rerun'];

/** Events that bring a device version into a project, take it out, or re-run a trial. */
export const versionFactActions: readonly string[] = [
  'project.version_added',
  'device_version.created',
  'project.version_removed',
  'trial.rerun',
];

/** What the rule reads of an event. */
export interface ProjectEventFact {
  id: number;
  projectId: string;
  action: string;
  objectId: string;
  after: unknown;
}

const field = (value: unknown, name: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;

/**
 * The newest other version that came into the evidence's project after it and is still there, unless a later trial
 * re-ran this one; null when the evidence is current (or names no version).
 */
export function rerunNeeded(
  evidence: ProjectEventFact,
  facts: readonly ProjectEventFact[],
): { versionId: string; versionName: string } | null {
  if (!versionedEvidenceActions.includes(evidence.action)) return null;
  const usedVersion = field(evidence.after, 'deviceVersionId');
  if (typeof usedVersion !== 'string') return null;
  const later = facts
    .filter((fact) => fact.projectId === evidence.projectId && fact.id > evidence.id)
    .sort((a, b) => a.id - b.id);
  if (later.some((fact) => fact.action === 'trial.rerun' && field(fact.after, 'basedOnTrialId') === evidence.objectId))
    return null;
  let newest: ProjectEventFact | null = null;
  for (const fact of later) {
    if (fact.objectId === usedVersion) continue;
    if (fact.action === 'project.version_added' || fact.action === 'device_version.created') newest = fact;
    if (fact.action === 'project.version_removed' && newest?.objectId === fact.objectId) newest = null;
  }
  if (!newest) return null;
  const name = field(newest.after, 'name');
  return { versionId: newest.objectId, versionName: typeof name === 'string' ? name : 'a newer version' };
}
