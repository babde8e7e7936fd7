import type { DomainEvent } from './domain-event';

/** The event of a change to a project or to something that belongs to it. */
export function projectEvent(
  actorId: string,
  deviceId: string,
  projectId: string,
  action: string,
  object: { type: string; id: string } = { type: 'project', id: projectId },
): Pick<DomainEvent, 'actorId' | 'action' | 'objectType' | 'objectId' | 'deviceId' | 'projectId'> {
  return { actorId, action, objectType: object.type, objectId: object.id, deviceId, projectId };
}

/** The event of a change to a workspace (its team, its settings) outside any project. */
export function workspaceEvent(
  actorId: string,
  deviceId: string,
  action: string,
  object: { type: string; id: string },
): Pick<DomainEvent, 'actorId' | 'action' | 'objectType' | 'objectId' | 'deviceId' | 'projectId'> {
  return { actorId, action, objectType: object.type, objectId: object.id, deviceId, projectId: null };
}

/**
 * The event of a change the system makes on behalf of the person who started it (a job finishing or failing their
 * cohort order, simulation, trial …): no actor, the person named (`onBehalfOf`, and `startedBy` in `after`).
 */
export function systemEvent(
  onBehalfOf: string | null,
  deviceId: string | null,
  projectId: string | null,
  action: string,
  object: { type: string; id: string },
  after: Record<string, unknown> = {},
): DomainEvent {
  return {
    actorId: null,
    onBehalfOf,
    action,
    objectType: object.type,
    objectId: object.id,
    deviceId,
    projectId,
    after: { ...after, startedBy: onBehalfOf },
  };
}
