import { and, asc, eq } from 'drizzle-orm';
import { domainEvents } from '../../src/db/schema';
import type { TestServer } from './test-server';

/** The audit trail's events of one object (issue 20), in the order they were written. */
export async function eventsOf(server: TestServer, objectType: string, objectId: string) {
  return server.context.db.orm
    .select()
    .from(domainEvents)
    .where(and(eq(domainEvents.objectType, objectType), eq(domainEvents.objectId, objectId)))
    .orderBy(asc(domainEvents.id));
}
