import { AsyncLocalStorage } from 'node:async_hooks';

/** A user's membership of one workspace as stored (null: not a member). */
export interface MembershipSnapshot {
  userId: string;
  deviceId: string;
  membership: { role: string; status: string } | null;
}

/**
 * What the code under a request takes from it: its id (domain events), and once signed in the caller's membership of
 * the workspace the request's path addresses, read with the session in one statement
 * (docs/decisions/session-and-membership.md).
 */
export interface RequestContext {
  requestId: string;
  membership?: MembershipSnapshot | undefined;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` (and everything it awaits) as part of a request. */
export function withRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** The current request's id; null in a job or a CLI. */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}

/** Keeps the caller's membership read at authentication for the rest of the request (nothing outside a request). */
export function noteCallerMembership(snapshot: MembershipSnapshot): void {
  const store = storage.getStore();
  if (store) store.membership = snapshot;
}

/**
 * The membership noted at authentication, when it is this user's of this workspace and nothing was written since in
 * the request; undefined otherwise (the caller then reads it).
 */
export function notedMembership(userId: string, deviceId: string): MembershipSnapshot['membership'] | undefined {
  const noted = storage.getStore()?.membership;
  return noted?.userId === userId && noted.deviceId === deviceId ? noted.membership : undefined;
}

/** Forgets the noted membership: a unit of work may change memberships, so later reads go to the database. */
export function forgetCallerMembership(): void {
  const store = storage.getStore();
  if (store) store.membership = undefined;
}
