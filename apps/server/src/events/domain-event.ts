/**
 * A change of a regulated record as a service states it (issue 20): who did what to which object, the object's
 * relevant state before and after, and the reason where the server asked for one. The time, the request id and the
 * id are added when it is written (events/domain-event.repository.ts), its place in the chain and its hash after the
 * commit (events/audit-chainer.ts).
 */
export interface DomainEvent {
  /** Null for the system (a job, a CLI). */
  actorId: string | null;
  /**
   * For a system event (a job finishing the work someone started): that person. The trail names the actor "System
   * (for <their name>)"; the event's `after` carries their id as `startedBy` (events/kinds.ts `systemEvent`).
   */
  onBehalfOf?: string | null;
  /** `<object type>.<verb in the past>`, e.g. `project.status_changed`. */
  action: string;
  objectType: string;
  objectId: string;
  deviceId: string | null;
  projectId: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Where a unit of work's events go: appended to the trail just before its transaction commits. */
export interface TransactionEvents {
  record(event: DomainEvent): void;
}

/** An event as its subscribers receive it, after the commit: with its id in the trail. */
export interface CommittedEvent extends DomainEvent {
  id: number;
}
