import { AsyncLocalStorage } from 'node:async_hooks';

/** What a domain event takes from the request that caused it. */
export interface RequestContext {
  requestId: string;
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
